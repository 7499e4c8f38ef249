import type { Page } from 'playwright-core'

/**
 * The language Chromium writes to a tagged PDF (the catalog's and the Document element's /Lang)
 * is the `<html lang>`; a document without one gets Chromium's own UI language (en-US) whatever
 * `locale` says, a guess a screen reader would then read the text with. So for a tagged print of
 * such a document `<html lang="und">` (BCP 47 "undetermined") is set first: the PDF/UA step then
 * takes `pdf.metadata.lang` or `pdf.locale`, or reports the language as missing (decision 0103).
 * Not the locale itself: a lang changes font fallback and hyphenation, and a tagged print must
 * look like the untagged one (measured: `und` picks the same fonts as no lang, `ja-JP` others).
 */
export async function declareUndeterminedLanguage(page: Page): Promise<void> {
  // runs in the page (a string: this package is not compiled against the DOM)
  await page.evaluate(
    `(() => { const html = document.documentElement; if (!(html.getAttribute('lang') || '').trim()) html.setAttribute('lang', 'und') })()`,
  )
}
