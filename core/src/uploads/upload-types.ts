// What an upload may be (SPEC 4.9: 415 for types the service does not take). The bytes decide,
// not the name or the declared type: a PNG called .pdf is still a PNG, and archives (zip bombs
// among them) are refused because nothing here would ever open one.

export type UploadType = 'application/pdf' | 'text/csv'

/** How many leading bytes the decision needs. */
export const SNIFF_BYTES = 64 * 1024

const PDF_MAGIC = Buffer.from('%PDF-')
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'])

function isUtf8Text(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false
  // a multi-byte character may be cut at the end of the sniffed part
  const body = complete ? head : head.subarray(0, Math.max(0, head.length - 3))
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body)
    return true
  } catch {
    return false
  }
}

/**
 * The type the service takes this file as, or undefined (415): a PDF (its header in the first
 * 1024 bytes, as PDF 32000 §7.5.2 allows), or UTF-8 text declared or named as CSV.
 */
export function uploadTypeOf(
  head: Buffer,
  complete: boolean,
  filename: string,
  declared: string,
): UploadType | undefined {
  if (head.subarray(0, 1024).includes(PDF_MAGIC)) return 'application/pdf'
  const csv = CSV_TYPES.has(declared.split(';')[0]!.trim().toLowerCase()) || /\.csv$/i.test(filename)
  if (csv && isUtf8Text(head, complete)) return 'text/csv'
  return undefined
}
