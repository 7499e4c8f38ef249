// The page count of a PDF qpdf has just written from `--empty --pages ...`, read from the bytes
// instead of a second qpdf run. qpdf writes such a file with a flat page tree (one /Pages
// dictionary holding every page) and, the empty primary input having none, no object streams:
// `<< /Count 200 /Kids [ ... ] /Type /Pages >>` stands in the file as text. The count is trusted
// only when the file has exactly one such dictionary and as many /Page dictionaries; anything
// else answers undefined and the caller asks qpdf.

const PAGES_TYPE = Buffer.from('/Type /Pages')
const PAGE_TYPE = Buffer.from('/Type /Page ')
const COUNT = /\/Count (\d+)\b/

function occurrences(bytes: Buffer, needle: Buffer, limit: number): number[] {
  const at: number[] = []
  for (let i = bytes.indexOf(needle); i !== -1 && at.length <= limit; i = bytes.indexOf(needle, i + 1))
    at.push(i)
  return at
}

export function flatTreePageCount(bytes: Buffer): number | undefined {
  const roots = occurrences(bytes, PAGES_TYPE, 1)
  if (roots.length !== 1) return undefined
  const at = roots[0]!
  // the dictionary around it: from its `<<` to its `>>` (qpdf writes it on one line, no nesting)
  const open = bytes.lastIndexOf('<<', at)
  const close = bytes.indexOf('>>', at)
  if (open === -1 || close === -1 || close - open > 1_000_000) return undefined
  const dictionary = bytes.toString('latin1', open, close)
  if (dictionary.includes('<<', 2) || dictionary.includes('/Parent')) return undefined
  const count = Number(COUNT.exec(dictionary)?.[1])
  if (!Number.isSafeInteger(count)) return undefined
  return occurrences(bytes, PAGE_TYPE, count).length === count ? count : undefined
}
