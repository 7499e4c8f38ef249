// Test and bench helper only (no product code imports it): PDFs printed by the Chromium the
// service ships, as the PDF/A step receives them.
import { type Browser, chromium, type Page } from 'playwright-core'

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

/** `pages` pages, each the body of RICH_HTML (internal link targets made unique per page). */
export function pagesHtml(pages: number): string {
  const [head = '', rest = ''] = RICH_HTML.split('<body>')
  const body = rest.replace('</body></html>', '')
  const page = (n: number) =>
    `<section style="break-after:page">${body.replace(/end/g, `end-${n}`)}</section>`
  return `${head}<body>${Array.from({ length: pages }, (_, i) => page(i + 1)).join('')}</body></html>`
}

/** Graphics Chromium draws with soft masks, shadings and groups, under a header, footer and outline. */
export const EFFECTS_HTML = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Effekte</title><style>
.grad{background:linear-gradient(90deg,rgba(255,0,0,.8),rgba(0,0,255,.2));height:30px}
.blend{mix-blend-mode:multiply;background:#0f0;width:80px;height:30px}
.blur{filter:blur(2px);background:#f80;width:80px;height:30px}
.shadow{box-shadow:4px 4px 8px rgba(0,0,0,.5);border-radius:10px;width:80px;height:30px}
.clip{clip-path:circle(40%);background:radial-gradient(circle,#ff0,#f00);width:60px;height:60px}
.mask{-webkit-mask-image:linear-gradient(black,transparent);background:#00f;width:80px;height:30px}
</style></head><body>
<h1>Effekte</h1><div class="grad"></div><div class="blend"></div><div class="blur"></div><div class="shadow"></div><div class="clip"></div><div class="mask"></div>
<h2>Zeichen</h2><p style="font-style:italic;text-decoration:underline wavy red">Ünïcödé ﬁ “quotes” — € ½ Ελληνικά Русский עברית العربية हिन्दी ไทย</p>
<svg width="200" height="60"><defs><linearGradient id="lg"><stop offset="0" stop-color="red" stop-opacity=".3"/><stop offset="1" stop-color="blue"/></linearGradient><mask id="m"><rect width="100" height="60" fill="white" opacity=".5"/></mask><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="5" cy="5" r="3" fill="purple"/></pattern></defs><rect width="100" height="60" fill="url(#lg)" mask="url(#m)"/><rect x="100" width="100" height="60" fill="url(#p)"/></svg>
<h2>Formular</h2><input type="radio" checked><input type="range"><input type="date" value="2024-01-01"><progress value="50" max="100"></progress>
</body></html>`

export type PrintOptions = Pick<
  NonNullable<Parameters<Page['pdf']>[0]>,
  'tagged' | 'outline' | 'displayHeaderFooter' | 'headerTemplate' | 'footerTemplate'
>

export interface ChromiumPrinter {
  print(html: string, options?: PrintOptions): Promise<Buffer>
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
        return await page.pdf({ format: 'A4', printBackground: true, tagged: false, ...options })
      } finally {
        await page.close()
      }
    },
    close: () => browser.close(),
  }
}
