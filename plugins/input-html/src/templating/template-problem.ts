import { ProblemError } from '@docsvc/core/sdk'
import { LiquidError } from 'liquidjs'

// Longest excerpt we quote: a minified one-line HTML document must not end up in an error body.
const EXCERPT_MAX = 200

/** Where in a template an error is: 1-based line and column, and that line's text. */
export interface TemplatePosition {
  line: number
  column: number
  excerpt: string
}

/**
 * Turns whatever a Liquid parse or render threw into the SPEC 7.3 problem: template_syntax_error
 * (tokenizing, parsing, unknown tags and filters), template_fuel_exhausted (a render limit) or
 * template_runtime_error, with `line`, `column` and `excerpt` when the error has a position.
 * `label` names the template in the detail when a request has several (`head`).
 */
export function templateProblem(err: unknown, label?: string): ProblemError {
  if (err instanceof ProblemError) return err
  const liquid = LiquidError.is(err) ? err : undefined
  const message = cleanMessage(
    liquid?.originalError?.message ?? (err as Error | undefined)?.message ?? String(err),
  )
  const code = /limit exceeded$/.test(message)
    ? 'template_fuel_exhausted'
    : liquid && (liquid.name === 'TokenizationError' || liquid.name === 'ParseError')
      ? 'template_syntax_error'
      : 'template_runtime_error'
  const position = liquid?.token ? positionOf(liquid.token.input, liquid.token.begin) : undefined
  const where = position ? ` (line ${position.line}, column ${position.column})` : ''
  const detail = `${label ? `${label}: ` : ''}${message}${where}`
  return new ProblemError(code, detail, position ? { ...position } : {})
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

function cleanMessage(message: string): string {
  return (
    message
      // liquidjs appends the position; ours goes in the fields
      .replace(/, (?:file:.*?, )?line:\d+, col:\d+$/, '')
      // the in-memory file system's lookup failure, said plainly
      .replace(/^ENOENT: Failed to lookup "(.*)" in .*$/, 'partial "$1" not found')
  )
}
