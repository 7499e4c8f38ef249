import { XMLParser, XMLValidator } from 'fast-xml-parser'

// The readers' view of an XML document: elements by local name (prefixes vary between senders),
// each element and attribute marked when a reader takes it, so what no reader took can be
// listed (`unread`) instead of being dropped without a word.

export class XmlNode {
  used = false
  private readonly usedAttributes = new Set<string>()

  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: readonly XmlNode[]
  readonly text: string

  constructor(
    name: string,
    attributes: Readonly<Record<string, string>>,
    children: readonly XmlNode[],
    text: string,
  ) {
    this.name = name
    this.attributes = attributes
    this.children = children
    this.text = text
  }

  /** the first child of that local name, marked read */
  one(name: string): XmlNode | undefined {
    const child = this.children.find((c) => c.name === name)
    if (child) child.used = true
    return child
  }

  /** every child of that local name, marked read */
  all(name: string): XmlNode[] {
    const found = this.children.filter((c) => c.name === name)
    for (const c of found) c.used = true
    return found
  }

  /** its own text, or the text of a path of children (marked read); undefined when absent or empty */
  value(...path: string[]): string | undefined {
    let node: XmlNode | undefined = this
    for (const name of path) node = node?.one(name)
    return node ? nonEmpty(node.text) : undefined
  }

  /** whether a path of children exists, without marking anything read */
  has(...path: string[]): boolean {
    let node: XmlNode | undefined = this
    for (const name of path) node = node?.children.find((c) => c.name === name)
    return node !== undefined
  }

  attribute(name: string): string | undefined {
    const value = this.attributes[name]
    if (value !== undefined) this.usedAttributes.add(name)
    return value
  }

  /** paths of the elements and attributes below this one that no reader took */
  unread(path = this.name): string[] {
    const out = Object.keys(this.attributes)
      .filter((a) => !this.usedAttributes.has(a) && !IGNORED_ATTRIBUTES.test(a))
      .map((a) => `${path}/@${a}`)
    for (const child of this.children) {
      const childPath = `${path}/${child.name}`
      if (child.used) out.push(...child.unread(childPath))
      else out.push(childPath)
    }
    return out
  }
}

/** Namespace declarations and schema hints say nothing about the invoice. */
const IGNORED_ATTRIBUTES = /^(xmlns(:.*)?|schemaLocation)$/

const nonEmpty = (text: string): string | undefined => (text === '' ? undefined : text)

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> }

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
  // the five XML entities and character references; documents with a DOCTYPE (where entity
  // declarations live: billion laughs, external entities) are refused before parsing
  processEntities: true,
  // character references (&#10;) are XML; fast-xml-parser decodes them under this option
  htmlEntities: true,
})

function toNode(entry: Ordered): XmlNode | undefined {
  const name = Object.keys(entry).find((k) => k !== ':@')
  if (!name || name === '#text' || name === '#comment' || name.startsWith('?') || name === '!DOCTYPE')
    return undefined
  const content = (entry[name] as Ordered[]) ?? []
  const children = content.map(toNode).filter((n): n is XmlNode => n !== undefined)
  const text = content
    .filter((c) => '#text' in c)
    .map((c) => String(c['#text']))
    .join('')
  return new XmlNode(name, entry[':@'] ?? {}, children, text)
}

/** The root element of an XML document; throws on XML that is not well-formed. */
export function parseXml(xml: string | Buffer): XmlNode {
  const text = typeof xml === 'string' ? xml : xml.toString('utf8')
  // CII and UBL invoices have no DTD; a DOCTYPE is only ever a way to declare entities
  if (/<!DOCTYPE/i.test(text)) throw new Error('a DOCTYPE is not accepted in an e-invoice')
  const wellFormed = XMLValidator.validate(text)
  if (wellFormed !== true)
    throw new Error(`not well-formed XML (line ${wellFormed.err.line}): ${wellFormed.err.msg}`)
  const entries = parser.parse(text) as Ordered[]
  const root = entries.map(toNode).find((n) => n !== undefined)
  if (!root) throw new Error('the document has no root element')
  root.used = true
  return root
}

/**
 * The first of `nodes` that has the path: for a term EN 16931 has once and a syntax may repeat
 * (payment terms, payment means), so only the one taken is marked read and any other is listed.
 */
export function firstHaving(nodes: readonly XmlNode[], ...path: string[]): XmlNode | undefined {
  return nodes.find((n) => n.has(...path))
}
