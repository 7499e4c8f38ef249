import type { CDPSession } from 'playwright-core'
import { withTimeout } from './pooled-page.ts'

// The one check for glyphs no font covers, and for web fonts that did not load (decision 0071).
// It runs in the page after the output is made, on the layout that was printed or captured.

const CHECK_TIMEOUT_MS = 5_000
export const MAX_NAMED_GLYPHS = 20

/** What the check found: characters drawn as .notdef boxes, web fonts that failed to load. */
export interface FontReport {
  missingGlyphs: string[]
  /** the check stopped looking after 200 missing characters: there may be more */
  more: boolean
  failedFonts: FailedFont[]
}

export interface FailedFont {
  family: string
  /** the @font-face sources of that face, when the page's style sheets can be read */
  urls: string[]
}

/**
 * Whether a character has a glyph cannot be asked of the page directly, but Chromium draws every
 * character no font covers as the .notdef glyph of the element's first font: the same picture as
 * for U+10FFFD (a private-use code point in plane 16 that no font has). So each non-ASCII character
 * is drawn on a canvas in the font of the element that shows it and compared with that picture,
 * first by advance width (almost every covered character differs there) and then pixel by pixel.
 * Canvas text takes the document's font fallback and its loaded web fonts, as layout does.
 * Whitespace, control and format characters and combining marks draw nothing of their own and
 * are left out; so is text that is not displayed.
 */
const PAGE_CHECK = `(() => {
  const MAX_TEXT = 2000000, MAX_CHECKS = 3000, MAX_MISSING = 200, REF = '\\u{10FFFD}', W = 48, H = 32
  const skip = /[\\p{White_Space}\\p{Cc}\\p{Cf}\\p{M}\\p{Cs}]/u
  const byFont = new Map()
  let read = 0, checks = 0
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node && read < MAX_TEXT && checks < MAX_CHECKS; node = walker.nextNode()) {
    const text = node.data
    read += text.length
    if (!/[^\\x00-\\x7f]/.test(text)) continue
    const el = node.parentElement
    if (!el || el.closest('head,script,style,template,noscript,title')) continue
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) continue
    const cs = getComputedStyle(el)
    const font = cs.fontStyle + ' ' + cs.fontWeight + ' 20px ' + cs.fontFamily
    let chars = byFont.get(font)
    if (!chars) byFont.set(font, (chars = new Set()))
    for (const ch of text) {
      if (ch.codePointAt(0) < 0x80 || chars.has(ch) || skip.test(ch)) continue
      if (++checks > MAX_CHECKS) break
      chars.add(ch)
    }
  }
  const missing = new Set()
  if (byFont.size > 0) {
    const canvas = document.createElement('canvas')
    canvas.width = W
    canvas.height = H
    const g = canvas.getContext('2d', { willReadFrequently: true })
    const draw = (ch) => {
      g.clearRect(0, 0, W, H)
      g.fillText(ch, 8, 24)
      return g.getImageData(0, 0, W, H).data
    }
    const same = (a, b) => {
      for (let i = 3; i < a.length; i += 4) if (a[i] !== b[i]) return false
      return true
    }
    for (const [font, chars] of byFont) {
      if (missing.size >= MAX_MISSING) break
      g.font = font
      const refWidth = g.measureText(REF).width
      let ref
      for (const ch of chars) {
        if (missing.has(ch) || g.measureText(ch).width !== refWidth) continue
        ref = ref || draw(REF)
        if (same(draw(ch), ref)) missing.add(ch)
        if (missing.size >= MAX_MISSING) break
      }
    }
  }
  const weight = (w) => (w === 'normal' ? '400' : w === 'bold' ? '700' : String(w))
  const unquote = (f) => f.trim().replace(/^(["'])(.*)\\1$/, '$2')
  const rules = []
  const collect = (list, base) => {
    for (const rule of list) {
      if (rule instanceof CSSFontFaceRule) rules.push({ rule, base })
      else if (rule.cssRules) collect(rule.cssRules, base)
      if (rule instanceof CSSImportRule && rule.styleSheet) {
        try { collect(rule.styleSheet.cssRules, rule.styleSheet.href || base) } catch {}
      }
    }
  }
  for (const sheet of document.styleSheets) {
    try { collect(sheet.cssRules, sheet.href || document.baseURI) } catch {}
  }
  const failedFonts = []
  for (const face of document.fonts) {
    if (face.status !== 'error') continue
    const family = unquote(face.family)
    const urls = []
    for (const { rule, base } of rules) {
      const s = rule.style
      if (unquote(s.getPropertyValue('font-family')) !== family) continue
      if (weight(s.getPropertyValue('font-weight') || 'normal') !== weight(face.weight)) continue
      if ((s.getPropertyValue('font-style') || 'normal') !== face.style) continue
      for (const m of s.getPropertyValue('src').matchAll(/url\\(\\s*(["']?)(.*?)\\1\\s*\\)/g)) {
        try { urls.push(new URL(m[2], base).href) } catch {}
      }
    }
    failedFonts.push({ family, urls })
  }
  return { missingGlyphs: [...missing], more: missing.size >= MAX_MISSING, failedFonts }
})()`

/** Runs the check in the page's main world; a check that cannot finish in time finds nothing. */
export async function checkFonts(cdp: CDPSession, deadline: number): Promise<FontReport | undefined> {
  const timeout = Math.max(1, Math.min(CHECK_TIMEOUT_MS, deadline - Date.now()))
  const answer = await withTimeout(
    cdp.send('Runtime.evaluate', { expression: PAGE_CHECK, returnByValue: true, timeout, silent: true }),
    timeout,
  ).catch(() => undefined)
  if (!answer || answer.exceptionDetails) return undefined
  return answer.result.value as FontReport
}

/** `안 (U+C548), 녕 (U+B155) and 3 more`: the characters as a user can search for them. */
export function nameGlyphs(chars: string[], more = false): string {
  const named = chars
    .slice(0, MAX_NAMED_GLYPHS)
    .map((ch) => `${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`)
  const rest = chars.length - named.length
  if (more) return `${named.join(', ')} and at least ${rest} more`
  return rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ')
}
