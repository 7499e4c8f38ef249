// A small XML writer: elements as data, serialised in one place with escaping, so a writer
// states the document's shape and order (as the XSD fixes it) and never concatenates strings.
// An element whose content is missing is left out, which is how optional terms are written.

export interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: readonly (XmlElement | string)[]
}

/** What a child position may hold: an element, text, nothing (left out) or a list of those. */
export type XmlContent = XmlElement | string | undefined | null | false | readonly XmlContent[]

type Attributes = Record<string, string | undefined>

function flatten(content: readonly XmlContent[]): (XmlElement | string)[] {
  const out: (XmlElement | string)[] = []
  for (const c of content) {
    if (c === undefined || c === null || c === false) continue
    if (Array.isArray(c)) out.push(...flatten(c))
    else out.push(c as XmlElement | string)
  }
  return out
}

function definedAttributes(attributes: Attributes): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attributes).filter((e): e is [string, string] => e[1] !== undefined),
  )
}

/** An element that is written even when empty (a group the XSD requires). */
export function element(
  name: string,
  content: readonly XmlContent[] = [],
  attributes: Attributes = {},
): XmlElement {
  return { name, attributes: definedAttributes(attributes), children: flatten(content) }
}

/** An optional group: left out when none of its children is there. */
export function group(
  name: string,
  content: readonly XmlContent[],
  attributes: Attributes = {},
): XmlElement | undefined {
  const children = flatten(content)
  return children.length === 0 ? undefined : { name, attributes: definedAttributes(attributes), children }
}

/** An element holding one value: left out when the value is missing. */
export function leaf(
  name: string,
  value: string | undefined,
  attributes: Attributes = {},
): XmlElement | undefined {
  return value === undefined ? undefined : element(name, [value], attributes)
}

// XML 1.0 allows tab, line feed, carriage return and everything from U+0020 except the
// surrogates (a paired surrogate is a valid character) and U+FFFE/U+FFFF.
function forbidden(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) return true
  }
  return false
}

function escapeText(value: string): string {
  if (forbidden(value))
    throw new RangeError(`text holds a character XML 1.0 cannot carry: ${JSON.stringify(value)}`)
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function escapeAttribute(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;')
}

function serialise(node: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth)
  const attributes = Object.entries(node.attributes)
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('')
  if (node.children.length === 0) {
    out.push(`${pad}<${node.name}${attributes}/>`)
    return
  }
  const [only] = node.children
  if (node.children.length === 1 && typeof only === 'string') {
    out.push(`${pad}<${node.name}${attributes}>${escapeText(only)}</${node.name}>`)
    return
  }
  out.push(`${pad}<${node.name}${attributes}>`)
  for (const child of node.children) {
    if (typeof child === 'string') out.push(`${pad}  ${escapeText(child)}`)
    else serialise(child, depth + 1, out)
  }
  out.push(`${pad}</${node.name}>`)
}

/** The document as UTF-8 bytes with its declaration. */
export function xmlDocument(root: XmlElement): Buffer {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>']
  serialise(root, 0, out)
  return Buffer.from(`${out.join('\n')}\n`, 'utf8')
}
