const HEAD_OPEN = /<head(?=[\s>/])[^>]*>/i
const HEAD_CLOSE = /<\/head\s*>/i
const HTML_OPEN = /<html(?=[\s>/])[^>]*>/i
const BODY_OPEN = /<body(?=[\s>/])/i
const DOCTYPE = /^\s*<!doctype[^>]*>/i

/**
 * Puts `head` into the document's <head>: at its end when the document has one (so its styles
 * come after the page's own and win), as a new <head> when there is only <html>, and otherwise
 * wraps the fragment into a full document.
 */
export function injectHead(html: string, head: string): string {
  const headOpen = HEAD_OPEN.exec(html)
  if (headOpen) {
    const afterOpen = headOpen.index + headOpen[0].length
    const close = HEAD_CLOSE.exec(html.slice(afterOpen))
    const at = close ? afterOpen + close.index : afterOpen
    return html.slice(0, at) + head + html.slice(at)
  }
  const htmlOpen = HTML_OPEN.exec(html)
  if (htmlOpen) {
    const at = htmlOpen.index + htmlOpen[0].length
    return `${html.slice(0, at)}<head>${head}</head>${html.slice(at)}`
  }
  const fragment = html.replace(DOCTYPE, '')
  const body = BODY_OPEN.test(fragment) ? fragment : `<body>${fragment}</body>`
  return `<!doctype html><html><head><meta charset="utf-8">${head}</head>${body}</html>`
}
