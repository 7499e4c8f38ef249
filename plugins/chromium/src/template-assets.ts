import type { GuardedFetch, RenderWarningCode } from '@docsvc/core/sdk'
import { causeText, ProblemError } from '@docsvc/core/sdk'
import type { Page } from 'playwright-core'

// Chromium prints header_html and footer_html in a frame of its own: a web font there given by URL
// made Page.printToPDF fail outright ("Printing failed"), and an <img> that could not be loaded
// was left out without a word. So before printing, each @font-face source and <img src> with an
// http(s) URL is fetched through the guard (the checks every asset gets) and written into the
// template as a data: URL, bounded in size; one that cannot be had is left out (its text falls
// back to an installed font, its image prints blank) with an asset_failed warning naming the
// field and the URL, and the render goes on.

/** One asset may be 2 MB, a template's assets 4 MB together: ample for a logo and a typeface. */
export const MAX_TEMPLATE_ASSET_BYTES = 2 * 1024 * 1024
export const MAX_TEMPLATE_ASSETS_BYTES = 4 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000

const FONT_FACE = /@font-face\s*\{[^}]*\}/gi
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)/gi
const STYLESHEET_LINK = /<link\b[^>]*\brel\s*=\s*["']?stylesheet\b[^>]*>/gi
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i
const IMPORT = /@import\s+(?:url\(\s*)?(?:"([^"]*)"|'([^']*)'|([^\s;)'"]+))\s*\)?[^;]*;?/gi
const IMG_SRC = /(<img\b[^>]*?\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi
// what a source that cannot be had becomes: a font source that fails at once without the
// network (the next source or a fallback is used), an image of one transparent pixel
const NO_FONT = 'data:,'
const NO_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'

type Field = 'header_html' | 'footer_html'
type Kind = 'font' | 'image' | 'stylesheet'
const KIND_NAME: Record<Kind, string> = { font: 'web font', image: 'image', stylesheet: 'stylesheet' }
const LEFT_OUT: Record<Kind, string> = {
  font: 'its text printed in an installed font',
  image: 'it is left out',
  stylesheet: 'it is left out',
}

export interface TemplateAssetContext {
  fetch: GuardedFetch
  deadline: number
  warn(code: RenderWarningCode, message: string): void
}

const urlOf = (a?: string, b?: string, c?: string) => (a ?? b ?? c ?? '').trim()
const isInline = (url: string) => url.toLowerCase().startsWith('data:')

function leftOut(ctx: TemplateAssetContext, field: Field, kind: Kind, url: string, why: string) {
  ctx.warn('asset_failed', `${field}: the ${KIND_NAME[kind]} ${url} ${why}; ${LEFT_OUT[kind]}`)
}

/**
 * The template with its stylesheets (`<link rel=stylesheet>`, `@import`) written in as <style>
 * text, their relative url()s made absolute against the sheet: Chromium's print failed on either.
 * One level: an @import inside a fetched sheet is left out with a warning, as is a sheet that
 * cannot be had.
 */
async function inlineStylesheets(
  field: Field,
  html: string,
  ctx: TemplateAssetContext,
  budget: { left: number },
): Promise<string> {
  const sheets = new Map<string, string>()
  const load = async (url: string) => {
    if (sheets.has(url) || isInline(url)) return
    const got = await fetchAsset(url, ctx, budget.left)
    if (typeof got === 'string') {
      leftOut(ctx, field, 'stylesheet', url, got)
      sheets.set(url, '')
      return
    }
    budget.left -= got.bytes.length
    const css = got.bytes
      .toString('utf8')
      .replace(CSS_URL, (whole, a, b, c) => {
        const ref = urlOf(a, b, c)
        return ref === '' || isInline(ref) ? whole : `url("${URL.parse(ref, url)?.href ?? ref}")`
      })
      .replace(IMPORT, (_whole, a, b, c) => {
        leftOut(
          ctx,
          field,
          'stylesheet',
          URL.parse(urlOf(a, b, c), url)?.href ?? urlOf(a, b, c),
          'is imported by another stylesheet (one level is fetched)',
        )
        return ''
      })
    // the sheet goes inside <style>: it must not close it
    sheets.set(url, css.replace(/<\/style/gi, '<\\/style'))
  }
  const links = [...html.matchAll(STYLESHEET_LINK)].map((m) => {
    const href = HREF.exec(m[0])
    return href ? urlOf(href[1], href[2], href[3]) : ''
  })
  const imports = [...html.matchAll(IMPORT)].map((m) => urlOf(m[1], m[2], m[3]))
  for (const url of [...links, ...imports]) if (url) await load(url)
  return html
    .replace(STYLESHEET_LINK, (tag) => {
      const href = HREF.exec(tag)
      const css = href ? sheets.get(urlOf(href[1], href[2], href[3])) : undefined
      if (css === undefined) return href ? tag : ''
      return css ? `<style>${css}</style>` : ''
    })
    .replace(IMPORT, (whole, a, b, c) => sheets.get(urlOf(a, b, c)) ?? whole)
}

/** A template's @font-face sources and images: remote ones to fetch, inline fonts to preload. */
function assetsOf(html: string): { remote: Map<string, Kind>; inlineFonts: string[] } {
  const remote = new Map<string, Kind>()
  const inlineFonts: string[] = []
  for (const face of html.match(FONT_FACE) ?? [])
    for (const m of face.matchAll(CSS_URL)) {
      const url = urlOf(m[1], m[2], m[3])
      if (isInline(url)) inlineFonts.push(url)
      else remote.set(url, 'font')
    }
  for (const m of html.matchAll(IMG_SRC)) {
    const url = urlOf(m[2], m[3], m[4])
    if (!isInline(url)) remote.set(url, 'image')
  }
  return { remote, inlineFonts }
}

/** The template with its remote fonts and images inlined (or left out, with a warning), and its fonts' data: URLs. */
async function inlineTemplateAssets(
  field: Field,
  html: string,
  ctx: TemplateAssetContext,
  budget: { left: number },
): Promise<{ html: string; fonts: string[] }> {
  html = await inlineStylesheets(field, html, ctx, budget)
  const { remote, inlineFonts } = assetsOf(html)
  // a font given as a data: URL needs the page to load it as well, as an inlined one does
  const fonts = [...inlineFonts]
  if (remote.size === 0) return { html, fonts }
  const inlined = new Map<string, string>()
  for (const [url, kind] of remote) {
    const got = await fetchAsset(url, ctx, budget.left)
    if (typeof got === 'string') {
      const outcome = kind === 'font' ? 'its text printed in an installed font' : 'it is left out'
      ctx.warn(
        'asset_failed',
        `${field}: the ${kind === 'font' ? 'web font' : 'image'} ${url} ${got}; ${outcome}`,
      )
      inlined.set(url, kind === 'font' ? NO_FONT : NO_IMAGE)
      continue
    }
    budget.left -= got.bytes.length
    const data = `data:${got.type};base64,${got.bytes.toString('base64')}`
    inlined.set(url, data)
    if (kind === 'font') fonts.push(data)
  }
  const withFonts = html.replace(FONT_FACE, (face) =>
    face.replace(CSS_URL, (whole, a, b, c) => {
      const data = inlined.get(urlOf(a, b, c))
      return data === undefined ? whole : `url("${data}")`
    }),
  )
  const withImages = withFonts.replace(IMG_SRC, (whole, start, a, b, c) => {
    const data = inlined.get(urlOf(a, b, c))
    return data === undefined ? whole : `${start}"${data}"`
  })
  return { html: withImages, fonts }
}

/** The asset's bytes and media type, or why it cannot be inlined (a phrase for the warning). */
async function fetchAsset(
  url: string,
  ctx: TemplateAssetContext,
  room: number,
): Promise<{ bytes: Buffer; type: string } | string> {
  if (!/^https?:\/\//i.test(url))
    return 'is not an http(s) URL (a header or footer has no address to resolve it against: give an absolute URL or a data: URL)'
  const timeoutMs = Math.min(FETCH_TIMEOUT_MS, Math.max(1, ctx.deadline - Date.now()))
  let response: Awaited<ReturnType<GuardedFetch>>
  try {
    response = await ctx.fetch(url, {
      timeoutMs,
      maxBytes: Math.max(0, Math.min(MAX_TEMPLATE_ASSET_BYTES, room)),
    })
  } catch (err) {
    const reason = err instanceof ProblemError ? (err.detail ?? err.code) : causeText(err)
    return `could not be loaded (${reason}; a header's or footer's fonts and images may be ${MAX_TEMPLATE_ASSET_BYTES} bytes each, ${MAX_TEMPLATE_ASSETS_BYTES} together)`
  }
  if (response.status < 200 || response.status >= 300) return `could not be loaded (HTTP ${response.status})`
  const given = response.headers['content-type']
  const type = (Array.isArray(given) ? given[0] : given)?.split(';')[0]?.trim() || 'application/octet-stream'
  return { bytes: response.body, type }
}

/**
 * The PDF options with the remote fonts and images of both templates inlined, and the data: URLs
 * of those fonts (which the page must load before printing: see preloadTemplateFonts).
 */
export async function withTemplateAssets<O extends { header_html?: string; footer_html?: string }>(
  options: O,
  ctx: TemplateAssetContext,
): Promise<{ options: O; fonts: string[] }> {
  const out = { ...options }
  const fonts: string[] = []
  const budget = { left: MAX_TEMPLATE_ASSETS_BYTES }
  for (const field of ['header_html', 'footer_html'] as const) {
    const html = options[field]
    if (!html) continue
    const inlined = await inlineTemplateAssets(field, html, ctx, budget)
    out[field] = inlined.html
    fonts.push(...inlined.fonts)
  }
  return { options: out, fonts }
}

/**
 * Measured on the Chromium we ship: the header and footer print with a web font only when the
 * page itself has loaded the same source (a data: URL in the template alone prints a fallback
 * font). Each is loaded as a FontFace of a family of its own, so the document's fonts and
 * layout stay as they were.
 */
export async function preloadTemplateFonts(page: Page, fonts: string[]): Promise<void> {
  if (fonts.length === 0) return
  await page.evaluate(`Promise.all(${JSON.stringify(fonts)}.map((url, i) => {
    const face = new FontFace('docsvc-template-font-' + i, 'url(' + JSON.stringify(url) + ')')
    document.fonts.add(face)
    return face.load().catch(() => document.fonts.delete(face))
  }))`)
}
