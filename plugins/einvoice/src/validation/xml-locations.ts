// xmllint names a line, not a node. This maps a line back to the element that starts on it, as
// an XPath with the document's own prefixes and 1-based positions among same-named siblings, and
// turns the `{namespace}local` names of its messages into the document's `prefix:local`.

/** One element's start tag: its qualified name, where it starts, and its XPath. */
interface StartTag {
  name: string
  line: number
  path: string
}

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<\/?([^\s/>!?]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/g

/** Every start tag of a well-formed document with its line and XPath (bounded: 200,000 tags). */
export function startTags(xml: string): StartTag[] {
  const tags: StartTag[] = []
  const stack: { path: string; counts: Map<string, number> }[] = [{ path: '', counts: new Map() }]
  let line = 1
  let scanned = 0
  for (const match of xml.matchAll(TOKEN)) {
    line += countNewlines(xml, scanned, match.index)
    scanned = match.index
    const [token, name, rest = ''] = match
    if (!name) continue
    if (token.startsWith('</')) {
      if (stack.length > 1) stack.pop()
      continue
    }
    const parent = stack.at(-1)!
    const position = (parent.counts.get(name) ?? 0) + 1
    parent.counts.set(name, position)
    const path = `${parent.path}/${name}[${position}]`
    tags.push({ name, line, path })
    if (tags.length >= 200_000) break
    if (!rest.trimEnd().endsWith('/')) stack.push({ path, counts: new Map() })
  }
  return tags
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** The XPath of the element named `local` whose start tag is on `line` (the last such), else undefined. */
export function elementPathAt(tags: StartTag[], line: number, local: string | undefined): string | undefined {
  const onLine = tags.filter((t) => t.line === line)
  const named = local ? onLine.filter((t) => t.name === local || t.name.endsWith(`:${local}`)) : onLine
  return (named.at(-1) ?? onLine.at(-1))?.path
}

/** The document's namespace prefixes, by namespace URI (the default namespace has none). */
export function prefixesOf(xml: string): Map<string, string> {
  const prefixes = new Map<string, string>()
  for (const m of xml.matchAll(/\sxmlns(?::([\w.-]+))?\s*=\s*["']([^"']*)["']/g)) {
    if (!prefixes.has(m[2]!)) prefixes.set(m[2]!, m[1] ?? '')
  }
  return prefixes
}

/** `{urn:...}Name` -> `cbc:Name` with the document's prefix (unchanged when unknown). */
export function qualify(text: string, prefixes: Map<string, string>): string {
  return text.replace(/\{([^}]*)\}([\w.-]+)/g, (whole, uri: string, local: string) => {
    const prefix = prefixes.get(uri)
    if (prefix === undefined) return whole
    return prefix ? `${prefix}:${local}` : local
  })
}
