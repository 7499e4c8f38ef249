import type { ModelObject, ModelTypes } from './model-object.ts'
import type { XmpPacket, XmpProperty, XmpValue } from './xmp-rdf.ts'
import { STRUCTS } from './xmp-schemas.ts'

// The PDF/A extension schema container (ISO 19005-2 6.6.2.3.3): pdfaExtension:schemas is a Bag
// of schema descriptions whose fields, in their own namespaces and with their own prefixes,
// describe properties, value types and the fields of those types.

const NS = {
  container: 'http://www.aiim.org/pdfa/ns/extension/',
  schema: 'http://www.aiim.org/pdfa/ns/schema#',
  property: 'http://www.aiim.org/pdfa/ns/property#',
  type: 'http://www.aiim.org/pdfa/ns/type#',
  field: 'http://www.aiim.org/pdfa/ns/field#',
}

const FIELDS: Record<string, string[]> = {
  [NS.schema]: ['schema', 'namespaceURI', 'prefix', 'property', 'valueType'],
  [NS.property]: ['name', 'valueType', 'category', 'description'],
  [NS.type]: ['type', 'namespaceURI', 'prefix', 'description', 'field'],
  [NS.field]: ['name', 'valueType', 'description'],
}

interface ExtensionKind {
  type: string
  ns: string
  label: string
  /** the field that names the object in a finding */
  key: string
  /** each field and what it must be: `is<Field>Valid<Form>`, and its prefix `<field>Prefix` */
  fields: [string, 'Text' | 'URI' | 'Seq'][]
  /** it names a value type that must be defined */
  typed: boolean
}

const KINDS: Record<'schema' | 'property' | 'valueType' | 'field', ExtensionKind> = {
  schema: {
    type: 'ExtensionSchemaDefinition',
    ns: NS.schema,
    label: 'schema',
    key: 'namespaceURI',
    fields: [
      ['schema', 'Text'],
      ['namespaceURI', 'URI'],
      ['prefix', 'Text'],
      ['property', 'Seq'],
      ['valueType', 'Seq'],
    ],
    typed: false,
  },
  property: {
    type: 'ExtensionSchemaProperty',
    ns: NS.property,
    label: 'property',
    key: 'name',
    fields: [
      ['name', 'Text'],
      ['valueType', 'Text'],
      ['category', 'Text'],
      ['description', 'Text'],
    ],
    typed: true,
  },
  valueType: {
    type: 'ExtensionSchemaValueType',
    ns: NS.type,
    label: 'value type',
    key: 'type',
    fields: [
      ['type', 'Text'],
      ['namespaceURI', 'URI'],
      ['prefix', 'Text'],
      ['description', 'Text'],
      ['field', 'Seq'],
    ],
    typed: false,
  },
  field: {
    type: 'ExtensionSchemaField',
    ns: NS.field,
    label: 'field',
    key: 'name',
    fields: [
      ['name', 'Text'],
      ['valueType', 'Text'],
      ['description', 'Text'],
    ],
    typed: true,
  },
}

const cap = (name: string) => name[0]!.toUpperCase() + name.slice(1)
const validity = (name: string, form: string) => `is${cap(name)}Valid${form}`

/** The model types, their properties derived from KINDS (one place for the field lists). */
export const XMP_EXTENSION_TYPES: ModelTypes = {
  ExtensionSchemasContainer: { props: ['isValidBag', 'prefix'] },
  ExtensionSchemaObject: { props: ['containsUndefinedFields'] },
  ...Object.fromEntries(
    Object.values(KINDS).map((kind) => [
      kind.type,
      {
        parent: 'ExtensionSchemaObject',
        props: [
          ...kind.fields.flatMap(([name, form]) => [validity(name, form), `${name}Prefix`]),
          ...(kind.typed ? ['isValueTypeDefined'] : []),
          ...(kind.ns === NS.property ? ['category'] : []),
        ],
      },
    ]),
  ),
}

const BASIC_TYPES = new Set([
  'Text',
  'Integer',
  'Boolean',
  'Real',
  'Rational',
  'Date',
  'URI',
  'URL',
  'XPath',
  'Locale',
  'MIMEType',
  'AgentName',
  'ProperName',
  'RenditionClass',
  'GUID',
  'GPSCoordinate',
  'Lang Alt',
  'Choice',
  'Closed Choice',
  'Open Choice',
])

const isText = (v: XmpValue | undefined) => v !== undefined && (v.kind === 'text' || v.kind === 'uri')
const textOf = (v: XmpValue | undefined) =>
  v && (v.kind === 'text' || v.kind === 'uri') ? v.text.trim() : undefined
const isSeq = (v: XmpValue | undefined) => v !== undefined && v.kind === 'array' && v.array === 'Seq'

function typeDefined(type: string | undefined, custom: Set<string>): boolean {
  if (!type) return false
  const inner = /^(Seq|Bag|Alt|Closed Choice of|Open Choice of) (.+)$/.exec(type)?.[2] ?? type
  return BASIC_TYPES.has(inner) || STRUCTS[inner] !== undefined || custom.has(inner)
}

export function xmpExtensionObjects(packet: XmpPacket | undefined): ModelObject[] {
  if (!packet) return []
  const containers = packet.properties.filter((p) => p.ns === NS.container && p.name === 'schemas')
  const out: ModelObject[] = []
  for (const container of containers) {
    out.push({
      type: 'ExtensionSchemasContainer',
      context: 'XMP pdfaExtension:schemas',
      props: {
        isValidBag: container.value.kind === 'array' && container.value.array === 'Bag',
        prefix: container.prefix,
      },
    })
  }
  const schemas = containers.flatMap((c) => (c.value.kind === 'array' ? c.value.items : []))
  // value types any schema of the packet defines
  const custom = new Set<string>()
  for (const s of schemas) {
    for (const t of listItems(field(s, NS.schema, 'valueType'))) {
      const name = textOf(field(t, NS.type, 'type')?.value)
      if (name) custom.add(name)
    }
  }
  const describe = (value: XmpValue, kind: ExtensionKind): ModelObject => {
    const get = (n: string) => field(value, kind.ns, n)
    const props: Record<string, unknown> = { containsUndefinedFields: undefinedFields(value, kind.ns) }
    for (const [name, form] of kind.fields) {
      const p = get(name)
      props[validity(name, form)] = form === 'Seq' ? p === undefined || isSeq(p.value) : isText(p?.value)
      props[`${name}Prefix`] = p?.prefix ?? null
    }
    if (kind.typed) props.isValueTypeDefined = typeDefined(textOf(get('valueType')?.value), custom)
    if (kind.ns === NS.property) props.category = textOf(get('category')?.value) ?? null
    return {
      type: kind.type,
      context: `XMP extension ${kind.label} ${textOf(get(kind.key)?.value) ?? '?'}`,
      props,
    }
  }
  for (const s of schemas) {
    out.push(describe(s, KINDS.schema))
    for (const p of listItems(field(s, NS.schema, 'property'))) out.push(describe(p, KINDS.property))
    for (const t of listItems(field(s, NS.schema, 'valueType'))) {
      out.push(describe(t, KINDS.valueType))
      for (const fd of listItems(field(t, NS.type, 'field'))) out.push(describe(fd, KINDS.field))
    }
  }
  return out
}

function field(v: XmpValue | undefined, ns: string, name: string): XmpProperty | undefined {
  return v?.kind === 'struct' ? v.fields.find((f) => f.ns === ns && f.name === name) : undefined
}

function listItems(p: XmpProperty | undefined): XmpValue[] {
  return p?.value.kind === 'array' ? p.value.items : []
}

/** a field in the structure's namespace that the schema of that structure does not define */
function undefinedFields(v: XmpValue, ns: string): boolean {
  if (v.kind !== 'struct') return false
  const known = FIELDS[ns] ?? []
  return v.fields.some((f) => f.ns === ns && !known.includes(f.name))
}
