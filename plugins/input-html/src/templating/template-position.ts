// Longest excerpt we quote: a minified one-line HTML document must not end up in an error body.
const EXCERPT_MAX = 200

/** Where in a template an error is: 1-based line and column, and that line's text. */
export interface TemplatePosition {
  line: number
  column: number
  excerpt: string
}

/** 1-based line and column of `offset` in `source`, and the text of that line. */
export function positionOf(source: string, offset: number): TemplatePosition {
  const lineStart = offset === 0 ? 0 : source.lastIndexOf('\n', offset - 1) + 1
  const newline = source.indexOf('\n', offset)
  const lineEnd = newline === -1 ? source.length : newline
  let line = 1
  for (let i = source.indexOf('\n'); i !== -1 && i < lineStart; i = source.indexOf('\n', i + 1)) line++
  const column = offset - lineStart + 1
  return { line, column, excerpt: excerptOf(source.slice(lineStart, lineEnd).replace(/\r$/, ''), column) }
}

function excerptOf(text: string, column: number): string {
  if (text.length <= EXCERPT_MAX) return text
  // a window around the column keeps the offending tag in view
  const start = Math.max(0, Math.min(column - 1 - EXCERPT_MAX / 4, text.length - EXCERPT_MAX))
  const prefix = start > 0 ? '…' : ''
  const suffix = start + EXCERPT_MAX < text.length ? '…' : ''
  return prefix + text.slice(start, start + EXCERPT_MAX) + suffix
}
