import { PDFBool, PDFDict, type PDFDocument, PDFHexString, PDFString } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { infoDict, readMetadata } from '../pdf-info.ts'
import { writeXmp } from '../xmp.ts'
import { name, structElements, structTreeRoot, textValue } from './structure-tree.ts'
import { uaFinding } from './ua-findings.ts'

// What identifies an accessible document: its title, shown in the viewer's title bar instead of
// the file name (7.1-9 dc:title, 7.1-10 DisplayDocTitle), its language (7.2: the catalog /Lang,
// which every text without its own /Lang inherits), the PDF/UA claim in XMP (5-1, 5-2), and
// /MarkInfo /Marked (6.2-1). A missing title or language is a finding, never made up: a file name
// or a guessed language would tell a screen-reader user something false.

export interface IdentityOptions {
  /** `pdf.metadata.title` / `.lang`, when given: they win over what the document says */
  title?: string | undefined
  lang?: string | undefined
  /** `pdf.locale`: the document's language when neither the page nor the metadata gives one */
  locale?: string | undefined
  /** claim PDF/UA-1 in XMP (pdfua), or only make the document accessible (tagged) */
  claim: boolean
}

/** BCP 47 as ISO 32000 §14.9.2 and veraPDF 7.2-29 take it */
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/

/**
 * Chromium titles a document without `<title>` with its address (`about:blank`, the URL it
 * loaded): that is no title a reader should hear, so it counts as none.
 */
function isStandInTitle(title: string): boolean {
  return /^(about:|data:|file:|blob:|https?:\/\/\S+$)/i.test(title.trim())
}

export function fixDocumentIdentity(doc: PDFDocument, options: IdentityOptions): Finding[] {
  const findings: Finding[] = []
  const info = infoDict(doc)
  const given = options.title?.trim()
  const current = readMetadata(doc).title?.trim()
  if (given) info.set(name('Title'), PDFHexString.fromText(given))
  else if (!current || isStandInTitle(current)) {
    info.delete(name('Title'))
    findings.push(
      uaFinding(
        'noTitle',
        'The document has no title (no <title> element and no pdf.metadata.title): the XMP metadata has no dc:title.',
      ),
    )
  }

  // `und` (undetermined) is what the Chromium plugin declares for a document without a language
  const declared = readMetadata(doc).lang?.trim()
  const known = declared && declared.toLowerCase() !== 'und' ? declared : undefined
  const lang = options.lang?.trim() || known || options.locale?.trim()
  if (!lang) {
    doc.catalog.delete(name('Lang'))
    findings.push(
      uaFinding(
        'noLanguage',
        'The document language is unknown: give <html lang>, pdf.metadata.lang or pdf.locale.',
      ),
    )
  } else if (!LANGUAGE_TAG.test(lang)) {
    findings.push(
      uaFinding('badLanguage', `The document language ${JSON.stringify(lang)} is not a language tag.`),
    )
  } else {
    doc.catalog.set(name('Lang'), PDFString.of(lang))
    dropUndetermined(doc)
  }

  const prefs = doc.catalog.lookupMaybe(name('ViewerPreferences'), PDFDict) ?? doc.context.obj({})
  prefs.set(name('DisplayDocTitle'), PDFBool.True)
  doc.catalog.set(name('ViewerPreferences'), prefs)
  const markInfo = doc.catalog.lookupMaybe(name('MarkInfo'), PDFDict) ?? doc.context.obj({})
  markInfo.set(name('Marked'), PDFBool.True)
  doc.catalog.set(name('MarkInfo'), markInfo)

  writeXmp(doc, readMetadata(doc), options.claim ? { 'pdfuaid:part': '1' } : {})
  return findings
}

/** an element's `und` would hide the catalog's language from the content under it */
function dropUndetermined(doc: PDFDocument): void {
  const root = structTreeRoot(doc)
  if (!root) return
  for (const { dict } of structElements(doc, root)) {
    if (
      textValue(dict.lookup(name('Lang')))
        ?.trim()
        .toLowerCase() === 'und'
    )
      dict.delete(name('Lang'))
  }
}
