import type { PooledPage } from './pooled-page.ts'

// Text a page script draws on a <canvas> is pixels, not DOM text: the glyph check (font-check.ts)
// cannot find it afterwards. So before page scripts run, fillText and strokeText of the 2D
// contexts are wrapped to note each non-ASCII character with the font it was drawn in; the check
// takes the notes (which also stops the noting, so its own drawing is not noted) and measures
// them like any other text (decision 0094).

/** Where the notes are handed over: a non-writable window property under a registered symbol. */
export const CANVAS_TEXT_KEY = 'docsvc.canvasText'

// at most this many distinct fonts and characters are noted: a page cannot grow the notes unbounded
const HOOK = `(() => {
  const KEY = Symbol.for(${JSON.stringify(CANVAS_TEXT_KEY)})
  if (Object.prototype.hasOwnProperty.call(window, KEY)) return
  const MAX_FONTS = 100, MAX_CHARS = 20000
  const notes = new Map()
  let on = true, count = 0
  const note = (context, text) => {
    if (!on) return
    const s = String(text)
    if (!/[^\\x00-\\x7f]/.test(s)) return
    const font = String(context.font)
    let chars = notes.get(font)
    if (!chars) {
      if (notes.size >= MAX_FONTS) return
      notes.set(font, (chars = new Set()))
    }
    for (const ch of s) {
      if (ch.codePointAt(0) < 0x80 || chars.has(ch)) continue
      if (++count > MAX_CHARS) { on = false; return }
      chars.add(ch)
    }
  }
  for (const Context of [self.CanvasRenderingContext2D, self.OffscreenCanvasRenderingContext2D]) {
    if (!Context) continue
    for (const name of ['fillText', 'strokeText']) {
      const original = Context.prototype[name]
      // a method (no prototype, same name and length), as the native one
      const wrapped = { [name](text, ...rest) { note(this, text); return original.call(this, text, ...rest) } }[name]
      Object.defineProperty(Context.prototype, name, { value: wrapped, writable: true, enumerable: true, configurable: true })
    }
  }
  Object.defineProperty(window, KEY, {
    value: () => { on = false; return [...notes].map(([font, chars]) => [font, [...chars].join('')]) },
  })
})()`

/**
 * Notes canvas text from now on: in every document the page opens (a URL, frames) and in the
 * current window, which inline HTML reuses (setContent writes into it). Only for pages whose
 * scripts run (a page without scripts draws no canvas text), and such a window is replaced
 * after the render, so the wrapper never outlives it. Returns the undo of the init script.
 */
export async function noteCanvasText(pooled: PooledPage): Promise<() => Promise<void>> {
  const init = await pooled.page.addInitScript({ content: HOOK })
  await pooled.cdp.send('Runtime.evaluate', { expression: HOOK, silent: true })
  return () => init.dispose()
}
