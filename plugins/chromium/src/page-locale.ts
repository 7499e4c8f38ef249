import { Type } from 'typebox'
import type { PooledPage } from './pooled-page.ts'

// The `locale` output option (docs/decisions/0016-locale.md): a BCP 47 tag the page sees as
// navigator.language, Intl's default locale and the Accept-Language of its requests.

export const LocaleSchema = Type.String({
  pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  maxLength: 35,
  description:
    'Language of the page as a BCP 47 tag: navigator.language, Intl formatting and Accept-Language.',
  examples: ['de-DE'],
})

/**
 * Puts the page in `locale` (undefined: the browser's own); only a change is sent, like the
 * viewport. false when Chromium has no locale data for it: the page then keeps the default.
 */
export async function useLocale(pooled: PooledPage, locale: string | undefined): Promise<boolean> {
  const supported = locale === undefined || (await chromiumSupports(pooled, locale))
  const wanted = supported ? locale : undefined
  if (pooled.locale === wanted) return supported
  const { cdp } = pooled
  if (wanted === undefined) {
    // an empty user agent ends the override, Accept-Language with it
    await cdp.send('Emulation.setUserAgentOverride', { userAgent: '' })
    await cdp.send('Emulation.setLocaleOverride', {})
  } else {
    if (pooled.locale !== undefined) await cdp.send('Emulation.setLocaleOverride', {})
    const userAgent = await evaluate<string>(pooled, 'navigator.userAgent')
    await cdp.send('Emulation.setUserAgentOverride', { userAgent, acceptLanguage: wanted })
    await cdp.send('Emulation.setLocaleOverride', { locale: wanted })
  }
  pooled.locale = wanted
  return supported
}

async function chromiumSupports(pooled: PooledPage, locale: string): Promise<boolean> {
  // Chromium takes any well-formed tag and formats with root data when it has none
  const found = await evaluate<string[]>(
    pooled,
    `Intl.DateTimeFormat.supportedLocalesOf([${JSON.stringify(locale)}])`,
  )
  return found.length > 0
}

/** Straight through CDP: works with page scripts switched off, and needs no Playwright world. */
async function evaluate<T>(pooled: PooledPage, expression: string): Promise<T> {
  const { result, exceptionDetails } = await pooled.cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
  })
  if (exceptionDetails) throw new Error(`locale check failed: ${exceptionDetails.text}`)
  return result.value as T
}
