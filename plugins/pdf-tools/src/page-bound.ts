// An upper bound on a PDF's page count read from its bytes, without a qpdf run. In a file
// without object streams every object stands in it as text, so each page dictionary shows its
// `/Type /Page` (the key is required for pages): their number bounds the pages from above (old
// versions kept by incremental updates only raise it). A file with object streams may hide them
// compressed: no bound. A broken file whose pages lack the key can have more pages than the
// bound, so callers check the real count afterwards too.

const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9])/g
/** Past this size the scan would hold up the event loop; the caller then asks qpdf. */
export const PAGE_BOUND_MAX_BYTES = 4 * 1024 * 1024

export function pageCountBound(bytes: Buffer): number | undefined {
  if (bytes.length > PAGE_BOUND_MAX_BYTES) return undefined
  const text = bytes.toString('latin1')
  if (text.includes('/ObjStm')) return undefined
  return text.match(PAGE_TYPE)?.length ?? 0
}
