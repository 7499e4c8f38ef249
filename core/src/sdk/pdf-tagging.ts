// Whether a PDF render's options make a tagged PDF: the one rule the PDF output prints by and the
// kernel owes a PDF/UA-1 report by (SPEC 7.4: every tagged PDF gets one, decision 0109).

/**
 * `tagged: true`, `pdfua: true` (PDF/UA-1 is built on the structure tree; with `tagged: false`
 * the request is refused), or `outline: true` unless `tagged: false`: Chromium builds the outline
 * from the structure tree, so an outline makes the PDF tagged; with `tagged: false` no outline is
 * made (the output warns) and the PDF stays untagged.
 */
export function makesTaggedPdf(options: { tagged?: unknown; outline?: unknown; pdfua?: unknown }): boolean {
  if (options.tagged === true || options.pdfua === true) return true
  return options.outline === true && options.tagged !== false
}
