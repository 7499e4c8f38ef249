import { GLYPHLESS_CHARACTER } from '@docsvc/core/sdk'
import { CANVAS_TEXT_KEY } from './canvas-text.ts'

// The part of the glyph check that runs in a document (font-check.ts says how it is used).
//
// Whether a character has a glyph cannot be asked of the page directly, but Chromium draws every
// character no font covers as the .notdef glyph of the element's first font: the same picture as
// for U+10FFFD (a private-use code point in plane 16 that no font has). So each non-ASCII
// character is drawn on a canvas in the font that shows it and compared with that picture, first
// by advance width (almost every covered character differs there) and then pixel by pixel. Canvas
// text takes its document's font fallback and loaded web fonts, as layout does.
//
// The text looked at, each with the place a warning names (decisions 0071, 0094):
// - the document's displayed text nodes (no place: the document itself);
// - `::before` / `::after` content of the elements that style sheet rules give content, with
//   attr(), the `quotes` strings and the symbols of an @counter-style a counter uses
//   (`::before of li.step`); the predefined counter styles draw digits and letters and are left out;
// - text page scripts drew on a canvas (`canvas`, noted by canvas-text.ts);
// - the header and footer templates (`header template`), laid out in a frame of their own that,
//   like Chromium's print templates, has no access to the page's web fonts, runs no scripts and
//   loads nothing but data: URLs, with `title` and `url` filled in as the print does.
// Whitespace, control and format characters and combining marks are left out, and so is text
// that is not displayed. At most 3,000 character-font pairs and 2 million characters of text are
// looked at, and the check stops after 200 missing characters.

/** A template to check: its HTML and the width of the sheet it is printed on, in CSS px. */
export interface TemplateToCheck {
  where: 'header template' | 'footer template'
  html: string
  width: number
}

export const PAGE_CHECK = `(async ({ templates }) => {
  const MAX_TEXT = 2000000, MAX_CHECKS = 3000, MAX_MISSING = 200, MAX_PSEUDO = 2000
  const REF = '\\u{10FFFD}', W = 48, H = 32
  const skip = new RegExp(${JSON.stringify(GLYPHLESS_CHARACTER.source)}, 'u')
  const nonAscii = /[^\\x00-\\x7f]/
  let read = 0, checks = 0
  const full = () => read >= MAX_TEXT || checks >= MAX_CHECKS
  // where + font -> the characters to measure in that font, in that document
  const groups = new Map()
  const add = (doc, where, kind, font, text) => {
    if (checks >= MAX_CHECKS || !nonAscii.test(text)) return
    const key = where + '\\n' + font
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { doc, where, kind, font, chars: new Set() }))
    for (const ch of text) {
      if (ch.codePointAt(0) < 0x80 || group.chars.has(ch) || skip.test(ch)) continue
      if (++checks > MAX_CHECKS) return
      group.chars.add(ch)
    }
  }
  const fontOf = (cs) => cs.fontStyle + ' ' + cs.fontWeight + ' 20px ' + cs.fontFamily
  const shown = (el, cs) =>
    !(el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) && parseFloat(cs.fontSize) > 0
  const unescape = (s) =>
    s.replace(/\\\\([0-9a-fA-F]{1,6})\\s?|\\\\(.)/gs, (_, hex, ch) => {
      if (!hex) return ch
      const cp = parseInt(hex, 16)
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\\ufffd'
    })

  const walkText = (doc, where, kind) => {
    const view = doc.defaultView
    const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node && !full(); node = walker.nextNode()) {
      const text = node.data
      read += text.length
      if (!nonAscii.test(text)) continue
      const el = node.parentElement
      if (!el || el.closest('head,script,style,template,noscript,title')) continue
      const cs = view.getComputedStyle(el)
      if (shown(el, cs)) add(doc, where, kind, fontOf(cs), text)
    }
  }

  // the style sheets once: @font-face rules (failed fonts), @counter-style rules by name, and the
  // elements whose ::before / ::after rules set content
  const faces = [], counterStyles = new Map(), pseudoSelectors = new Map()
  const selectorParts = (text) => {
    const parts = []
    let depth = 0, start = 0
    for (let i = 0; i < text.length; i++) {
      const c = text[i]
      if (c === '(' || c === '[') depth++
      else if (c === ')' || c === ']') depth--
      else if (c === ',' && depth === 0) { parts.push(text.slice(start, i)); start = i + 1 }
    }
    parts.push(text.slice(start))
    return parts
  }
  const collect = (list, base) => {
    for (const rule of list) {
      if (rule instanceof CSSFontFaceRule) faces.push({ rule, base })
      else if (typeof CSSCounterStyleRule !== 'undefined' && rule instanceof CSSCounterStyleRule)
        counterStyles.set(rule.name, rule)
      else if (rule instanceof CSSStyleRule && /:(before|after)/i.test(rule.selectorText)) {
        // only content that can draw a non-ASCII character: not the common content: ""
        const content = rule.style.getPropertyValue('content')
        const varies = /attr\\(|counters?\\(|quote/i.test(content)
        if (varies || nonAscii.test(unescape(content)))
          for (const part of selectorParts(rule.selectorText)) {
            const m = /^(.*?)::?(before|after)\\s*$/is.exec(part.trim())
            if (!m) continue
            const base = m[1].trim()
            const selector = base === '' || /[>+~]$/.test(base) ? (base + ' *').trim() : base
            const known = pseudoSelectors.get(selector) || { pseudos: new Set(), varies: false }
            known.pseudos.add('::' + m[2].toLowerCase())
            pseudoSelectors.set(selector, { pseudos: known.pseudos, varies: known.varies || varies })
          }
      }
      if (rule.cssRules) collect(rule.cssRules, base)
      if (rule instanceof CSSImportRule && rule.styleSheet) {
        try { collect(rule.styleSheet.cssRules, rule.styleSheet.href || base) } catch {}
      }
    }
  }
  for (const sheet of document.styleSheets) {
    try { collect(sheet.cssRules, sheet.href || document.baseURI) } catch {}
  }

  // what a ::before / ::after draws, as far as it can be known without its layout
  const generated = (el, cs) => {
    const value = cs.content
    if (!value || value === 'none' || value === 'normal') return ''
    let out = ''
    const token = /"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)'|attr\\(\\s*([^\\s,)]+)[^)]*\\)|counters?\\(([^)]*)\\)|(open-quote|close-quote)/gs
    for (const m of value.matchAll(token)) {
      if (m[1] !== undefined || m[2] !== undefined) out += unescape(m[1] ?? m[2])
      else if (m[3]) out += el.getAttribute(m[3]) ?? ''
      else if (m[4] !== undefined) {
        for (const s of m[4].matchAll(/"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)'/gs)) out += unescape(s[1] ?? s[2])
        const rule = counterStyles.get(m[4].split(',').pop().trim())
        if (rule)
          out += unescape([rule.prefix, rule.suffix, rule.negative, rule.pad, rule.symbols, rule.additiveSymbols].join(' '))
      } else if (m[5] && cs.quotes && cs.quotes !== 'auto' && cs.quotes !== 'none') out += unescape(cs.quotes)
    }
    return out
  }
  const describe = (el) => {
    let name = el.localName
    if (el.id) return name + '#' + el.id
    for (const c of [...el.classList].slice(0, 2)) name += '.' + c
    return name
  }
  // the elements each selector matches, each pseudo-element once; <q> has its quotes from the
  // browser's own sheet. A selector whose content is one string everywhere (a bullet before every
  // cell) stops after 50 elements in a row that add nothing new.
  pseudoSelectors.set('q', { pseudos: new Set(['::before', '::after']), varies: true })
  const done = { '::before': new Set(), '::after': new Set() }
  const seen = new Set()
  let visited = 0
  for (const [selector, { pseudos, varies }] of pseudoSelectors) {
    if (full() || visited >= MAX_PSEUDO) break
    let found
    try { found = document.querySelectorAll(selector) } catch { continue }
    let idle = 0
    for (const el of found) {
      if (full() || visited >= MAX_PSEUDO || (!varies && idle >= 50)) break
      idle++
      for (const pseudo of pseudos) {
        if (done[pseudo].has(el)) continue
        done[pseudo].add(el)
        visited++
        const cs = getComputedStyle(el, pseudo)
        const text = cs.display === 'none' ? '' : generated(el, cs)
        if (!nonAscii.test(text) || !shown(el, cs)) continue
        const where = pseudo + ' of ' + describe(el), font = fontOf(cs)
        const key = where + '\\n' + font + '\\n' + text
        if (seen.has(key)) continue
        seen.add(key)
        idle = 0
        read += text.length
        add(document, where, 'text', font, text)
      }
    }
  }

  walkText(document, '', 'text')

  const take = window[Symbol.for(${JSON.stringify(CANVAS_TEXT_KEY)})]
  if (typeof take === 'function') {
    const parse = document.createElement('span').style
    for (const [font, text] of take()) {
      parse.font = ''
      parse.font = font
      add(document, 'canvas', 'canvas', parse.fontFamily ? fontOf(parse) : font, text)
    }
  }

  const frames = []
  try {
    for (const template of templates) {
      const frame = document.createElement('iframe')
      frame.setAttribute('sandbox', 'allow-same-origin')
      frame.setAttribute('style', 'all: initial; position: absolute; left: -100000px; top: 0; border: 0; height: 400px; width: ' + template.width + 'px')
      document.documentElement.appendChild(frame)
      frames.push(frame)
      const doc = frame.contentDocument
      if (!doc) continue
      doc.open()
      doc.write('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \\'none\\'; style-src \\'unsafe-inline\\' data:; font-src data:; img-src data:"><body style="margin: 0"><div style="display: flex; font-size: 0; line-height: normal">' + template.html + '</div></body>')
      doc.close()
      for (const el of doc.getElementsByClassName('title')) el.textContent = document.title
      for (const el of doc.getElementsByClassName('url')) el.textContent = document.URL
      walkText(doc, template.where, 'template')
    }

    const places = new Map()
    const missing = new Set()
    const canvases = new Map()
    for (const group of groups.values()) {
      if (missing.size >= MAX_MISSING) break
      const { doc, font } = group
      let tools = canvases.get(doc)
      if (!tools) {
        const canvas = doc.createElement('canvas')
        canvas.width = W
        canvas.height = H
        tools = { g: canvas.getContext('2d', { willReadFrequently: true }), known: new Map() }
        canvases.set(doc, tools)
      }
      const { g } = tools
      const sample = [...group.chars].join('')
      // a face no layout asked for (a template's data: font, a canvas font) loads first; the
      // faces of laid-out text were awaited before printing
      if (group.kind !== 'text')
        try { if (!doc.fonts.check(font, sample)) await doc.fonts.load(font, sample) } catch {}
      g.font = font
      let known = tools.known.get(g.font)
      if (!known) tools.known.set(g.font, (known = new Map()))
      const draw = (ch) => {
        g.clearRect(0, 0, W, H)
        g.fillText(ch, 8, 24)
        return g.getImageData(0, 0, W, H).data
      }
      const refWidth = g.measureText(REF).width
      let ref
      for (const ch of group.chars) {
        let absent = known.get(ch)
        if (absent === undefined) {
          absent = false
          if (g.measureText(ch).width === refWidth) {
            ref = ref || draw(REF)
            const drawn = draw(ch)
            absent = true
            for (let i = 3; i < drawn.length; i += 4) if (drawn[i] !== ref[i]) { absent = false; break }
          }
          known.set(ch, absent)
        }
        if (!absent) continue
        let place = places.get(group.where)
        if (!place) places.set(group.where, (place = { where: group.where, kind: group.kind, chars: new Set(), more: false }))
        place.chars.add(ch)
        missing.add(ch)
        if (missing.size >= MAX_MISSING) { place.more = true; break }
      }
    }

    const weight = (w) => (w === 'normal' ? '400' : w === 'bold' ? '700' : String(w))
    const unquote = (f) => f.trim().replace(/^(["'])(.*)\\1$/, '$2')
    const failedFonts = []
    for (const face of document.fonts) {
      if (face.status !== 'error') continue
      const family = unquote(face.family)
      const urls = []
      for (const { rule, base } of faces) {
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
    return {
      places: [...places.values()].map((p) => ({ ...p, chars: [...p.chars] })),
      failedFonts,
    }
  } finally {
    for (const frame of frames) frame.remove()
  }
})`
