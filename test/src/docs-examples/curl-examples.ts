import type { Block } from './markdown-blocks.ts'

/**
 * A runnable example of the docs: a ```sh block with one shell command (a curl line using `$BASE`
 * and `$KEY`), followed by the ```http block of the answer it gets:
 *
 *     HTTP/1.1 400
 *     Content-Type: application/problem+json
 *
 *     {"code": "validation_error"}
 *
 * The status must match; each header shown must start the answer's header; the JSON shown must be
 * contained in the answer's (objects by the fields shown, arrays by their first items). A string
 * `"$NAME"` matches any string and binds NAME for later examples of the same page; a string ending
 * in `…` matches any string starting with what comes before it.
 */
export interface CurlExample {
  source: string
  line: number
  command: string
  expected: ExpectedAnswer
}

export interface ExpectedAnswer {
  status: number
  headers: Record<string, string>
  /** the JSON excerpt, when the block shows one */
  body?: unknown
}

export function parseAnswer(text: string, where: string): ExpectedAnswer {
  const [head = '', ...rest] = text.split('\n\n')
  const [statusLine = '', ...headerLines] = head.split('\n')
  const status = /^HTTP\/[\d.]+ (\d{3})\b/.exec(statusLine)?.[1]
  if (!status) throw new Error(`${where}: the answer block does not start with "HTTP/1.1 <status>"`)
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon < 1) throw new Error(`${where}: "${line}" is not a header line`)
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const bodyText = rest.join('\n\n').trim()
  if (!bodyText) return { status: Number(status), headers }
  try {
    return { status: Number(status), headers, body: JSON.parse(bodyText) }
  } catch (err) {
    throw new Error(`${where}: the answer's body is not JSON (${(err as Error).message})`)
  }
}

/** The examples of a page in order; a ```sh block without an answer after it is an error. */
export function curlExamples(blocks: Block[], source: string): CurlExample[] {
  const examples: CurlExample[] = []
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block
    if (block.lang !== 'sh') continue
    const next = blocks[i + 1]
    if (next?.lang !== 'http')
      throw new Error(
        `${source} line ${block.line}: a command needs the \`\`\`http answer it gets right after it`,
      )
    examples.push({
      source,
      line: block.line,
      command: block.body,
      expected: parseAnswer(next.body, `${source} line ${next.line}`),
    })
  }
  return examples
}

/**
 * Where `actual` departs from the excerpt (undefined when it matches); binds `"$NAME"` strings
 * into `bindings`.
 */
export function excerptMismatch(
  expected: unknown,
  actual: unknown,
  bindings: Record<string, string>,
  path = '',
): string | undefined {
  if (typeof expected === 'string') {
    if (/^\$[A-Z][A-Z0-9_]*$/.test(expected)) {
      if (typeof actual !== 'string')
        return `${path || '/'}: expected a string, got ${JSON.stringify(actual)}`
      bindings[expected.slice(1)] = actual
      return undefined
    }
    if (expected.endsWith('…'))
      return typeof actual === 'string' && actual.startsWith(expected.slice(0, -1))
        ? undefined
        : `${path || '/'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || '/'}: expected an array, got ${JSON.stringify(actual)}`
    for (const [i, item] of expected.entries()) {
      const miss = excerptMismatch(item, actual[i], bindings, `${path}/${i}`)
      if (miss) return miss
    }
    return undefined
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path || '/'}: expected an object, got ${JSON.stringify(actual)}`
    for (const [key, value] of Object.entries(expected)) {
      const miss = excerptMismatch(
        value,
        (actual as Record<string, unknown>)[key],
        bindings,
        `${path}/${key}`,
      )
      if (miss) return miss
    }
    return undefined
  }
  return Object.is(expected, actual)
    ? undefined
    : `${path || '/'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`
}
