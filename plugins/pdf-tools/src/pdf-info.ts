import { PDFDict, type PDFDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib'

// The document information a metadata read answers (SPEC 4.4), and the fields a set may change.

export const TEXT_FIELDS = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  creator: 'Creator',
  producer: 'Producer',
} as const

export interface DocumentMetadata {
  title: string | null
  author: string | null
  subject: string | null
  keywords: string[] | null
  creator: string | null
  producer: string | null
  created: string | null
  modified: string | null
  lang: string | null
}

export interface PageSizeRun {
  width: number
  height: number
  /** how many consecutive pages have this size */
  pages: number
}

/** The Info dictionary, made when the document has none. */
export function infoDict(doc: PDFDocument): PDFDict {
  const found = doc.context.lookupMaybe(doc.context.trailerInfo.Info, PDFDict)
  if (found) return found
  const dict = doc.context.obj({})
  doc.context.trailerInfo.Info = doc.context.register(dict)
  return dict
}

function text(dict: PDFDict | undefined, key: string): string | null {
  const value = dict?.lookup(PDFName.of(key))
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText()
  return null
}

function date(dict: PDFDict | undefined, key: string): string | null {
  const value = dict?.lookup(PDFName.of(key))
  if (!(value instanceof PDFString || value instanceof PDFHexString)) return null
  try {
    const parsed = value.decodeDate()
    return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString()
  } catch {
    return null
  }
}

export function splitKeywords(value: string | null): string[] | null {
  if (value === null) return null
  const list = value
    .split(/[,;]/)
    .map((k) => k.trim())
    .filter((k) => k !== '')
  return list.length > 0 ? list : null
}

export function readMetadata(doc: PDFDocument): DocumentMetadata {
  const info = doc.context.lookupMaybe(doc.context.trailerInfo.Info, PDFDict)
  const lang = doc.catalog.lookup(PDFName.of('Lang'))
  return {
    title: text(info, 'Title'),
    author: text(info, 'Author'),
    subject: text(info, 'Subject'),
    keywords: splitKeywords(text(info, 'Keywords')),
    creator: text(info, 'Creator'),
    producer: text(info, 'Producer'),
    created: date(info, 'CreationDate'),
    modified: date(info, 'ModDate'),
    lang: lang instanceof PDFString || lang instanceof PDFHexString ? lang.decodeText() || null : null,
  }
}

const round = (n: number) => Math.round(n * 100) / 100

/** Runs of consecutive pages of one size, in points (the media box, before rotation). */
export function pageSizeRuns(doc: PDFDocument): PageSizeRun[] {
  const runs: PageSizeRun[] = []
  for (const page of doc.getPages()) {
    const { width, height } = page.getMediaBox()
    const size = { width: round(width), height: round(height) }
    const last = runs[runs.length - 1]
    if (last && last.width === size.width && last.height === size.height) last.pages++
    else runs.push({ ...size, pages: 1 })
  }
  return runs
}

/** The version the file declares: its header, or the catalog's /Version when that is newer. */
export function pdfVersion(bytes: Buffer, doc: PDFDocument | undefined): string | null {
  const header = /%PDF-(\d\.\d)/.exec(bytes.subarray(0, 1024).toString('latin1'))?.[1] ?? null
  const catalog = doc?.catalog.lookup(PDFName.of('Version'))
  const declared = catalog instanceof PDFName ? catalog.decodeText() : undefined
  if (declared && /^\d\.\d$/.test(declared) && (header === null || declared > header)) return declared
  return header
}

/** Applies a `set`: fields present change, `""`, null or `[]` removes them, absent ones stay. */
export function applyMetadata(doc: PDFDocument, set: Record<string, unknown>): void {
  const info = infoDict(doc)
  for (const [field, key] of Object.entries(TEXT_FIELDS)) {
    if (!(field in set)) continue
    const value = set[field]
    if (typeof value === 'string' && value !== '') info.set(PDFName.of(key), PDFHexString.fromText(value))
    else info.delete(PDFName.of(key))
  }
  if ('keywords' in set) {
    const list = Array.isArray(set.keywords) ? (set.keywords as string[]).filter((k) => k.trim() !== '') : []
    if (list.length > 0) info.set(PDFName.of('Keywords'), PDFHexString.fromText(list.join(', ')))
    else info.delete(PDFName.of('Keywords'))
  }
  if ('lang' in set) {
    if (typeof set.lang === 'string' && set.lang !== '')
      doc.catalog.set(PDFName.of('Lang'), PDFString.of(set.lang))
    else doc.catalog.delete(PDFName.of('Lang'))
  }
}
