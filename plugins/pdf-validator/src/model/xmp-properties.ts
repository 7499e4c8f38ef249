import type { ModelObject, ModelTypes } from './model-object.ts'
import type { XmpPacket, XmpProperty, XmpValue } from './xmp-rdf.ts'
import { NAMESPACES, STRUCTS } from './xmp-schemas.ts'

// XMP properties against the schemas XMP 2005 predefines and the packet's own extension
// schemas (ISO 19005-2 6.6.2.3.1): each property is either predefined or described by an
// extension schema, and its value has the type the schema gives it.

export const XMP_PROPERTY_TYPES: ModelTypes = {
  XMPProperty: {
    props: [
      'isPredefinedInXMP2005',
      'isDefinedInMainPackage',
      'isDefinedInCurrentPackage',
      'isValueTypeCorrect',
    ],
  },
}

const EXT = {
  schema: 'http://www.aiim.org/pdfa/ns/schema#',
  property: 'http://www.aiim.org/pdfa/ns/property#',
  container: 'http://www.aiim.org/pdfa/ns/extension/',
}

const SIMPLE: Record<string, RegExp> = {
  Boolean: /^(True|False)$/,
  Integer: /^[+-]?\d+$/,
  Real: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  Rational: /^[+-]?\d+\/[+-]?\d+$/,
  Date: /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/,
  GPSCoordinate: /^\d{1,3},\d{1,2}(,\d{1,2}|\.\d+)[NSEW]$/,
}
const TEXTUAL = new Set([
  'Text',
  'ProperName',
  'AgentName',
  'URI',
  'URL',
  'XPath',
  'RenditionClass',
  'Locale',
  'MIMEType',
  'GUID',
  'Lang',
])

function simpleText(v: XmpValue): string | undefined {
  return v.kind === 'text' || v.kind === 'uri' ? v.text.trim() : undefined
}

/** Whether a value has an XMP type; unknown type names (custom extension types) are not judged. */
export function hasType(value: XmpValue, type: string, depth = 0): boolean {
  if (depth > 16 || type === 'Any') return true
  if (type === 'Lang Alt') {
    return (
      value.kind === 'array' &&
      value.array === 'Alt' &&
      value.items.every((i) => i.kind === 'text' && i.lang !== undefined)
    )
  }
  const array = /^(Seq|Bag|Alt) (.+)$/.exec(type)
  if (array) {
    return (
      value.kind === 'array' &&
      value.array === array[1] &&
      value.items.every((i) => hasType(i, array[2]!, depth + 1))
    )
  }
  const struct = STRUCTS[type]
  if (struct) {
    if (value.kind !== 'struct') return false
    return value.fields.every((f) => {
      const fieldType = f.ns === struct.ns ? struct.fields[f.name] : undefined
      return fieldType === undefined || hasType(f.value, fieldType, depth + 1)
    })
  }
  const text = simpleText(value)
  if (TEXTUAL.has(type)) return text !== undefined
  const pattern = SIMPLE[type]
  if (pattern) return text !== undefined && pattern.test(text)
  return true
}

/** The properties the packet's pdfaExtension:schemas describe: namespace → name → value type. */
function extensionProperties(properties: readonly XmpProperty[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>()
  for (const container of properties.filter((p) => p.ns === EXT.container && p.name === 'schemas')) {
    if (container.value.kind !== 'array') continue
    for (const schema of container.value.items) {
      if (schema.kind !== 'struct') continue
      const field = (name: string) => schema.fields.find((f) => f.ns === EXT.schema && f.name === name)?.value
      const nsValue = field('namespaceURI')
      const ns = nsValue ? simpleText(nsValue) : undefined
      if (!ns) continue
      const props = out.get(ns) ?? new Map<string, string>()
      const list = field('property')
      for (const p of list?.kind === 'array' ? list.items : []) {
        if (p.kind !== 'struct') continue
        const pf = (name: string) => {
          const v = p.fields.find((f) => f.ns === EXT.property && f.name === name)?.value
          return v ? simpleText(v) : undefined
        }
        const name = pf('name')
        if (name) props.set(name, pf('valueType') ?? 'Any')
      }
      out.set(ns, props)
    }
  }
  return out
}

export function xmpPropertyObjects(packet: XmpPacket | undefined): ModelObject[] {
  if (!packet) return []
  const extensions = extensionProperties(packet.properties)
  return packet.properties.map((p) => {
    const predefined = NAMESPACES[p.ns]?.[p.name]
    const extension = extensions.get(p.ns)?.get(p.name)
    const type = predefined ?? extension
    return {
      type: 'XMPProperty',
      context: `XMP property ${p.prefix}:${p.name}`,
      props: {
        isPredefinedInXMP2005: predefined !== undefined,
        isDefinedInMainPackage: extension !== undefined,
        isDefinedInCurrentPackage: extension !== undefined,
        isValueTypeCorrect: type === undefined || hasType(p.value, type),
      },
    }
  })
}
