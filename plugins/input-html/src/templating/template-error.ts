import { LiquidError } from 'liquidjs'
import { positionOf, type TemplatePosition } from './template-position.ts'

export type TemplateErrorCode = 'template_syntax_error' | 'template_runtime_error' | 'template_fuel_exhausted'

/** What went wrong in a template, as plain data: it crosses from the worker thread to the caller. */
export interface TemplateErrorInfo {
  code: TemplateErrorCode
  message: string
  position?: TemplatePosition
}

// V8's own ceilings, reached by templates that blow up a string or a list or recurse through
// partials: the template's budget, said in a template author's words
const ENGINE_EXHAUSTION: Record<string, string> = {
  'Invalid string length': 'a string grew past the longest the engine can hold',
  'Invalid array length': 'a list grew past the longest the engine can hold',
  'Maximum call stack size exceeded': 'templates nest too deeply (a partial rendering itself?)',
}

/**
 * Classifies whatever a Liquid parse or render threw (SPEC 7.3): template_syntax_error
 * (tokenizing, parsing, unknown tags and filters), template_fuel_exhausted (a liquidjs limit or
 * an engine ceiling) or template_runtime_error, with the position when the error has one.
 */
export function describeTemplateError(err: unknown): TemplateErrorInfo {
  const liquid = LiquidError.is(err) ? err : undefined
  const raw = cleanMessage(
    liquid?.originalError?.message ?? (err as Error | undefined)?.message ?? String(err),
  )
  const exhaustion = Object.hasOwn(ENGINE_EXHAUSTION, raw) ? ENGINE_EXHAUSTION[raw] : undefined
  const message = exhaustion ?? raw
  const code =
    exhaustion || /limit exceeded$/.test(message)
      ? 'template_fuel_exhausted'
      : liquid && (liquid.name === 'TokenizationError' || liquid.name === 'ParseError')
        ? 'template_syntax_error'
        : 'template_runtime_error'
  const token = liquid?.token
  return token ? { code, message, position: positionOf(token.input, token.begin) } : { code, message }
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
