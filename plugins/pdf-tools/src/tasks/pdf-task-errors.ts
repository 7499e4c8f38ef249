import { ProblemError, problemFromCause } from '@docsvc/core/sdk'

// pdf-lib's own failures on a hostile or broken file, said as the problem of the file. V8's
// ceilings count here too: a page tree whose /Kids lead back to an ancestor recurses until the
// stack runs out.

const CEILINGS: Record<string, string> = {
  'Maximum call stack size exceeded': 'its page tree loops back on itself or nests too deeply',
  'Invalid string length': 'a string in it is longer than can be held',
  'Invalid array length': 'a list in it is longer than can be held',
  'Array buffer allocation failed': 'a stream in it inflates past the memory budget',
}

/** The problem for an error pdf-lib threw while reading `label` (ProblemErrors pass as they are). */
export function pdfProblem(
  err: unknown,
  label: string,
  code: 'invalid_pdf_source' | 'render_failed' = 'invalid_pdf_source',
): ProblemError {
  if (err instanceof ProblemError) return err
  const message = err instanceof Error ? err.message : String(err)
  // pdf-lib's own words name offsets and objects; the ceilings above are said in the file's terms
  const reason = CEILINGS[message] ?? 'it is damaged or not a PDF'
  return problemFromCause(code, `The structure of ${label} cannot be read: ${reason}.`, err)
}

/** A Buffer over a task input's bytes (they arrive as a Uint8Array): no copy. */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
