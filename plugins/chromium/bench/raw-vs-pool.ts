// Micro benchmark (figures, not pass/fail): raw Playwright (setContent + pdf on a warm page, one
// page per concurrent worker) against the chromium plugin's outputs on the same HTML, at
// concurrency 1 and 2, in the same run, alternating.
// Usage: node plugins/chromium/bench/raw-vs-pool.ts [renders per round] [rounds]

import { testOutboundGuard } from '@docsvc/core/testing'
import { chromium, type Page } from 'playwright-core'
import { CLOSED_NETWORK_ARGS } from '../src/browser-instance.ts'
import { BrowserPool } from '../src/browser-pool.ts'
import { DEFAULT_CHROMIUM_CONFIG } from '../src/chromium-config.ts'
import { ImageOutput } from '../src/image-output.ts'
import { PdfOutput } from '../src/pdf-output.ts'

const RENDERS = Number(process.argv[2] ?? 40)
const ROUNDS = Number(process.argv[3] ?? 3)
const WARMUP = 6
const CHROMIUM = process.env.DOCSVC_CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = ['--no-sandbox', ...CLOSED_NETWORK_ARGS]

function invoiceHtml(): string {
  const rows = Array.from({ length: 48 }, (_, i) => {
    const qty = (i % 5) + 1
    const price = 12.5 + i * 3.25
    return `<tr><td>${i + 1}</td><td>Consulting service item ${i + 1}, detailed description</td><td>${qty}</td><td>${price.toFixed(2)}</td><td>${(qty * price).toFixed(2)}</td></tr>`
  }).join('')
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 12px; color: #222; margin: 24px }
    h1 { font-size: 28px; margin: 0 0 8px } .meta { display: flex; justify-content: space-between; margin-bottom: 24px }
    table { width: 100%; border-collapse: collapse } th, td { border-bottom: 1px solid #ddd; padding: 6px; text-align: left }
    th { background: #f3f4f6 } tr:nth-child(even) td { background: #fafafa } .total { text-align: right; font-size: 16px; margin-top: 16px }
  </style></head><body>
    <h1>Invoice INV-2024-0042</h1>
    <div class="meta"><div><b>ACME GmbH</b><br>Hauptstrasse 1<br>10115 Berlin</div><div><b>Customer</b><br>Example Ltd<br>1 High Street<br>London</div></div>
    <table><thead><tr><th>#</th><th>Description</th><th>Qty</th><th>Price</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>
    <p class="total"><b>Total: EUR 12,345.67</b></p>
  </body></html>`
}

interface Figures {
  docsPerSecond: number
  p50: number
  p95: number
}

interface Sample {
  latencies: number[]
  seconds: number
}

async function sample(concurrency: number, renderOne: (worker: number) => Promise<unknown>): Promise<Sample> {
  for (let i = 0; i < WARMUP; i++) await renderOne(i % concurrency)
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < RENDERS) {
        next++
        const t = performance.now()
        await renderOne(worker)
        latencies.push(performance.now() - t)
      }
    }),
  )
  return { latencies, seconds: (performance.now() - started) / 1000 }
}

function figures(samples: Sample[]): Figures {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b)
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  return { docsPerSecond: latencies.length / seconds, p50: at(0.5), p95: at(0.95) }
}

/** Raw and pool alternate, round after round, so load from elsewhere hits both alike. */
async function compare(
  concurrency: number,
  raw: (worker: number) => Promise<unknown>,
  pooled: (worker: number) => Promise<unknown>,
): Promise<[Figures, Figures]> {
  const rawSamples: Sample[] = []
  const poolSamples: Sample[] = []
  for (let round = 0; round < ROUNDS; round++) {
    rawSamples.push(await sample(concurrency, raw))
    poolSamples.push(await sample(concurrency, pooled))
  }
  return [figures(rawSamples), figures(poolSamples)]
}

function line(label: string, f: Figures, base?: Figures): string {
  const share = base
    ? `  ${((f.docsPerSecond / base.docsPerSecond) * 100).toFixed(0)}% of raw, p50 +${(f.p50 - base.p50).toFixed(1)} ms`
    : ''
  return `${label.padEnd(26)} ${f.docsPerSecond.toFixed(2).padStart(6)} docs/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p95 ${f.p95.toFixed(1).padStart(6)} ms${share}`
}

const html = invoiceHtml()
const raw = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
const rawContext = await raw.newContext()
const rawPages: Page[] = []
for (let i = 0; i < 2; i++) rawPages.push(await rawContext.newPage())

const pool = new BrowserPool({
  chromiumPath: CHROMIUM,
  config: { ...DEFAULT_CHROMIUM_CONFIG, concurrency: 2 },
  guard: testOutboundGuard([]),
  log: { info() {}, warn() {}, error() {}, debug() {} },
})
await pool.start()
const pdf = new PdfOutput(pool)
const png = new ImageOutput('png', pool)
const ctx = () => ({
  renderId: 'rnd_bench',
  workspaceId: 'ws_bench',
  test: false,
  signal: new AbortController().signal,
  maxPages: 100,
  deadline: Date.now() + 60_000,
  warn() {},
  log() {},
})
const doc = { kind: 'html' as const, html }

const pages = (await pdf.render(doc, {}, ctx())).pages
console.log(
  `2-page invoice (${pages} pages): ${ROUNDS} rounds x ${RENDERS} renders per line, raw and pool alternating`,
)
for (const concurrency of [1, 2]) {
  const [rawPdf, poolPdf] = await compare(
    concurrency,
    async (w) => {
      const page = rawPages[w]!
      await page.setContent(html)
      await page.pdf({ format: 'A4', printBackground: true })
    },
    () => pdf.render(doc, {}, ctx()),
  )
  console.log(line(`raw pdf c=${concurrency}`, rawPdf))
  console.log(line(`pool pdf c=${concurrency}`, poolPdf, rawPdf))
}
for (const concurrency of [1, 2]) {
  const [rawPng, poolPng] = await compare(
    concurrency,
    async (w) => {
      const page = rawPages[w]!
      await page.setViewportSize({ width: 1200, height: 630 })
      await page.setContent(html)
      await page.screenshot({ type: 'png' })
    },
    () => png.render(doc, { width: 1200, height: 630 }, ctx()),
  )
  console.log(line(`raw png 1200x630 c=${concurrency}`, rawPng))
  console.log(line(`pool png 1200x630 c=${concurrency}`, poolPng, rawPng))
}
const scripted = {
  kind: 'html' as const,
  html: html.replace('</body>', '<script>const total = 42</script></body>'),
}
const [rawJs, poolJs] = await compare(
  1,
  async () => {
    await rawPages[0]!.setContent(html)
    await rawPages[0]!.pdf({ format: 'A4', printBackground: true })
  },
  () => pdf.render(scripted, {}, ctx()),
)
console.log(line('raw pdf c=1', rawJs))
console.log(line('pool pdf+script c=1', poolJs, rawJs))
await pool.stop()
await raw.close()
