// Test and bench helper only (no product code imports it): PDFs printed by the Chromium the
// service ships, as the PDF/A step receives them.
import { type Browser, chromium } from 'playwright-core'

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAEklEQVR4nGOQqzixAB9mGBkKAIgXf4GE5AYiAAAAAElFTkSuQmCC'

/** What real documents hold: CJK text, emoji, SVG, transparency, form inputs, links, tables, images. */
export const RICH_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Archive sample</title>
<style>.glass{opacity:.5;background:rgba(255,0,0,.4);padding:4px} td{border:1px solid #888}</style></head><body>
<h1>Quarterly report</h1>
<p>Plain text, 日本語のテキスト, 中文文本, 한국어 텍스트, emoji 😀🎉📄.</p>
<p><a href="https://example.com/report">An outside link</a> and <a href="#end">a link inside</a>.</p>
<div class="glass">Half-transparent box with an rgba background</div>
<svg width="120" height="60"><rect width="120" height="60" fill="rgba(0,0,255,.3)"/><circle cx="30" cy="30" r="20" fill="green" opacity=".6"/><text x="60" y="35">SVG</text></svg>
<form><input type="text" value="typed text"><input type="checkbox" checked><select><option>One</option></select><textarea>notes</textarea><button>Send</button></form>
<table><tr><th>Item</th><th>Amount</th></tr><tr><td>Paper</td><td>12.00</td></tr></table>
<img src="${PNG}" width="64" height="64" alt="a blue square"><img src="${PNG}" width="32" style="image-rendering:pixelated" alt="">
<h2 id="end">End</h2></body></html>`

/** `pages` pages of text paragraphs, each page closed by a page break. */
export function pagesHtml(pages: number): string {
  const page = (n: number) =>
    `<section style="break-after:page"><h2>Page ${n}</h2>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>'.repeat(12)}</section>`
  return `<!doctype html><html lang="en"><head><title>Long document</title></head><body>${Array.from({ length: pages }, (_, i) => page(i + 1)).join('')}</body></html>`
}

export interface ChromiumPrinter {
  print(html: string, options?: { tagged?: boolean }): Promise<Buffer>
  close(): Promise<void>
}

export async function chromiumPrinter(): Promise<ChromiumPrinter> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.DOCSVC_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  })
  return {
    async print(html, options = {}) {
      const page = await browser.newPage()
      try {
        await page.setContent(html)
        return await page.pdf({ format: 'A4', printBackground: true, tagged: options.tagged ?? false })
      } finally {
        await page.close()
      }
    },
    close: () => browser.close(),
  }
}
