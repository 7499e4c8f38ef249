import { ProblemError } from '@docsvc/core'

/**
 * Turns `--feature key=true` and `--limit key=100` into values for the plan check in core,
 * which names unknown keys and bad values; only the `key=value` shape is checked here.
 */
export function parsePlanAssignments(
  flag: 'feature' | 'limit',
  items: string[] | undefined,
): Record<string, unknown> | undefined {
  if (!items || items.length === 0) return undefined
  const out: Record<string, unknown> = {}
  for (const item of items) {
    const at = item.indexOf('=')
    const key = item.slice(0, at).trim()
    if (at < 1 || key === '') {
      throw new ProblemError('validation_error', `--${flag} ${item}: expected key=value`)
    }
    const text = item.slice(at + 1).trim()
    out[key] = flag === 'feature' ? parseBoolean(text) : parseNumber(text)
  }
  return out
}

// Unparseable text is passed on as is, so core's message shows what was given.
function parseBoolean(text: string): unknown {
  return text === 'true' ? true : text === 'false' ? false : text
}

function parseNumber(text: string): unknown {
  const normalized = text.replaceAll('_', '')
  return /^-?\d+(\.\d+)?(e\d+)?$/i.test(normalized) ? Number(normalized) : text
}
