import { type CurlExample, excerptMismatch } from './curl-examples.ts'
import type { ExampleShell } from './run-shell.ts'

/**
 * Runs one documented example and says where the answer departs from the documented one
 * (undefined when it matches); binds the excerpt's `"$NAME"` values into `bindings`, which are
 * also the command's environment.
 */
export async function checkExample(
  shell: ExampleShell,
  example: CurlExample,
  bindings: Record<string, string>,
): Promise<string | undefined> {
  const where = `${example.source} line ${example.line}`
  const answer = await shell.curl(example.command, bindings)
  const { expected } = example
  const shown = `${answer.status} ${answer.body.slice(0, 600)}`
  if (answer.exitCode !== 0) return `${where}: exit ${answer.exitCode} ${answer.stderr}`
  if (answer.status !== expected.status) return `${where}: status ${expected.status} documented, got ${shown}`
  for (const [name, value] of Object.entries(expected.headers)) {
    if (!answer.headers[name]?.startsWith(value))
      return `${where}: header ${name}: ${value} documented, got ${answer.headers[name]}`
  }
  if (expected.body === undefined) return undefined
  let body: unknown
  try {
    body = JSON.parse(answer.body)
  } catch {
    return `${where}: a JSON answer documented, got ${shown}`
  }
  const miss = excerptMismatch(expected.body, body, bindings)
  return miss ? `${where}: ${miss}; got ${shown}` : undefined
}
