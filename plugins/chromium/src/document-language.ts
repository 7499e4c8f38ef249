import type { Page } from 'playwright-core'

/**
 * The language Chromium writes to a tagged PDF (the catalog's and the Document element's /Lang)
 * is the `<html lang>`; a document without one gets Chromium's own UI language (en-US) whatever
 * `locale` says, a guess a screen reader would then read the text with. So for a tagged print of
 * such a document, `<html lang>` is set first: to `locale` when given (the user said which
 * language), else to `und` (BCP 47 "undetermined"), which the PDF/UA step reports as a missing
 * language instead of passing en-US off as known.
 */
export async function declareDocumentLanguage(page: Page, locale: string | undefined): Promise<void> {
  // runs in the page (a string: this package is not compiled against the DOM)
  await page.evaluate(
    `(() => { const html = document.documentElement; if (!(html.getAttribute('lang') || '').trim()) html.setAttribute('lang', ${JSON.stringify(locale ?? 'und')}) })()`,
  )
}
