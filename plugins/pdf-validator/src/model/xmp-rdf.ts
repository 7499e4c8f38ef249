import { XMLParser, XMLValidator } from 'fast-xml-parser'

// An XMP packet read as RDF (XMP Specification Part 1, 7.4 to 7.9): its top-level properties with
// namespace, the prefix the packet used, and a value that is simple text, an array (Seq, Bag,
// Alt) or a structure of fields. Qualifiers other than xml:lang are kept as fields.

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'

export type XmpValue =
  | { kind: 'text'; text: string; lang?: string }
  | { kind: 'uri'; text: string }
  | { kind: 'array'; array: 'Seq' | 'Bag' | 'Alt'; items: XmpValue[] }
  | { kind: 'struct'; fields: XmpProperty[] }

export interface XmpProperty {
  ns: string
  prefix: string
  name: string
  value: XmpValue
}

export interface XmpPacket {
  /** the attributes of the `<?xpacket begin=... ?>` instruction */
  bytesAttribute: string | null
  encodingAttribute: string | null
  /** the XML parses */
  wellFormed: boolean
  /** UTF-8, UTF-16BE/LE, UTF-32 (by byte order mark and content) */
  actualEncoding: string
  properties: XmpProperty[]
}

type Node = Record<string, unknown> & { ':@'?: Record<string, string> }

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
})

function detectEncoding(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE'
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return bytes[2] === 0 && bytes[3] === 0 ? 'UTF-32LE' : 'UTF-16LE'
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'UTF-32BE'
  if (bytes[0] === 0 && bytes[1] !== 0) return 'UTF-16BE'
  if (bytes[0] !== 0 && bytes[1] === 0) return 'UTF-16LE'
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return 'UTF-8'
  } catch {
    return 'unknown'
  }
}

export function readXmp(bytes: Uint8Array): XmpPacket {
  const actualEncoding = detectEncoding(bytes)
  const decoder = actualEncoding.startsWith('UTF-16')
    ? new TextDecoder(actualEncoding.toLowerCase())
    : new TextDecoder('utf-8')
  const text = decoder.decode(bytes)
  const pi = /<\?xpacket\s+begin\s*=\s*(["'])[\s\S]*?\1([^?]*)\?>/.exec(text)
  const attr = (name: string) => {
    const m = pi ? new RegExp(`${name}\\s*=\\s*["']([^"']*)["']`).exec(pi[2] ?? '') : null
    return m ? (m[1] ?? '') : null
  }
  const xml = text.replace(/^\uFEFF/, '')
  const wellFormed = XMLValidator.validate(xml) === true
  let properties: XmpProperty[] = []
  if (wellFormed) {
    try {
      properties = rdfProperties(parser.parse(xml) as Node[])
    } catch {
      properties = []
    }
  }
  return {
    bytesAttribute: attr('bytes'),
    encodingAttribute: attr('encoding'),
    wellFormed,
    actualEncoding,
    properties,
  }
}

interface Element {
  ns: string
  prefix: string
  name: string
  attrs: { ns: string; prefix: string; name: string; value: string }[]
  children: Element[]
  text: string
  scope: Map<string, string>
}

function elements(nodes: Node[], parentScope: Map<string, string>): Element[] {
  const out: Element[] = []
  for (const node of nodes) {
    const tag = Object.keys(node).find((k) => k !== ':@')
    if (!tag || tag === '#text' || tag.startsWith('?') || tag === '#comment') continue
    const rawAttrs = node[':@'] ?? {}
    const scope = new Map(parentScope)
    for (const [k, val] of Object.entries(rawAttrs)) {
      if (k === 'xmlns') scope.set('', val)
      else if (k.startsWith('xmlns:')) scope.set(k.slice(6), val)
    }
    const split = (qname: string, useDefault: boolean) => {
      const i = qname.indexOf(':')
      const prefix = i < 0 ? '' : qname.slice(0, i)
      const name = i < 0 ? qname : qname.slice(i + 1)
      const ns = prefix === 'xml' ? XML_NS : (scope.get(prefix) ?? (useDefault ? (scope.get('') ?? '') : ''))
      return { prefix, name, ns }
    }
    const attrs = Object.entries(rawAttrs)
      .filter(([k]) => k !== 'xmlns' && !k.startsWith('xmlns:'))
      .map(([k, value]) => ({ ...split(k, false), value: String(value) }))
    const kids = (node[tag] as Node[]) ?? []
    const text = kids
      .filter((k) => '#text' in k)
      .map((k) => String(k['#text']))
      .join('')
    out.push({ ...split(tag, true), attrs, children: elements(kids, scope), text, scope })
  }
  return out
}

function find(els: Element[], ns: string, name: string): Element[] {
  const out: Element[] = []
  for (const e of els) {
    if (e.ns === ns && e.name === name) out.push(e)
    else out.push(...find(e.children, ns, name))
  }
  return out
}

const isRdf = (x: { ns: string }) => x.ns === RDF
const isLang = (x: { ns: string; name: string }) => x.ns === XML_NS && x.name === 'lang'

function rdfProperties(nodes: Node[]): XmpProperty[] {
  const roots = find(elements(nodes, new Map()), RDF, 'RDF')
  const out: XmpProperty[] = []
  for (const root of roots) {
    for (const description of root.children) out.push(...descriptionFields(description))
  }
  return out
}

/** The properties an rdf:Description (or a typed node) holds, as attributes and as children. */
function descriptionFields(d: Element): XmpProperty[] {
  const fields: XmpProperty[] = []
  for (const a of d.attrs) {
    if (isRdf(a) || isLang(a)) continue
    fields.push({ ns: a.ns, prefix: a.prefix, name: a.name, value: { kind: 'text', text: a.value } })
  }
  for (const child of d.children)
    fields.push({ ns: child.ns, prefix: child.prefix, name: child.name, value: propertyValue(child) })
  return fields
}

function propertyValue(e: Element): XmpValue {
  const parseType = e.attrs.find((a) => isRdf(a) && a.name === 'parseType')?.value
  if (parseType === 'Resource')
    return unwrapQualified({
      kind: 'struct',
      fields: e.children.map((c) => ({ ns: c.ns, prefix: c.prefix, name: c.name, value: propertyValue(c) })),
    })
  const resource = e.attrs.find((a) => isRdf(a) && a.name === 'resource')
  if (resource) return { kind: 'uri', text: resource.value }
  const array = e.children.find((c) => isRdf(c) && (c.name === 'Seq' || c.name === 'Bag' || c.name === 'Alt'))
  if (array && e.children.length === 1) {
    return {
      kind: 'array',
      array: array.name as 'Seq' | 'Bag' | 'Alt',
      items: array.children.filter((li) => isRdf(li) && li.name === 'li').map(propertyValue),
    }
  }
  const description = e.children.find((c) => isRdf(c) && c.name === 'Description')
  if (description && e.children.length === 1)
    return unwrapQualified({ kind: 'struct', fields: descriptionFields(description) })
  const fieldAttrs = e.attrs.filter((a) => !isRdf(a) && !isLang(a))
  if (e.children.length > 0 || fieldAttrs.length > 0) {
    return unwrapQualified({ kind: 'struct', fields: descriptionFields(e) })
  }
  const lang = e.attrs.find(isLang)?.value
  return lang === undefined ? { kind: 'text', text: e.text } : { kind: 'text', text: e.text, lang }
}

/** A structure with rdf:value is a qualified simple value (XMP Part 1, 7.8): the value counts. */
function unwrapQualified(v: XmpValue & { kind: 'struct' }): XmpValue {
  const value = v.fields.find((f) => f.ns === RDF && f.name === 'value')
  return value ? value.value : v
}
