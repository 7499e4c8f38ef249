// npm run bench: raw Chromium (playwright, warm pages) next to the service's sync endpoints on
// the same documents, at concurrency 1, 2 and 4; prints markdown. Figures, not a test.
import { cpus } from 'node:os'
import { CLOSED_NETWORK_ARGS } from '@docsvc/chromium'
import { chromium, type Page } from 'playwright-core'
import { cardHtml, invoiceHtml } from './invoice-html.ts'
import { type ServiceProcess, startService } from './service-process.ts'
import { measure, type RunStats } from './stats.ts'

// raw Chromium with the flags the service's browser has too (the service adds its guard proxy)
const CHROMIUM_ARGS = ['--no-sandbox', ...CLOSED_NETWORK_ARGS]
const LEVELS = [1, 2, 4]
const PER_LEVEL = Number(process.env.BENCH_RENDERS ?? 60)

interface Row {
  doc: string
  concurrency: number
  raw: RunStats
  service: RunStats
}

async function rawChromium(kind: 'pdf' | 'png', concurrency: number): Promise<RunStats> {
  const browser = await chromium.launch({
    executablePath: process.env.DOCSVC_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  })
  const context = await browser.newContext(kind === 'png' ? { viewport: { width: 1200, height: 630 } } : {})
  const pages: Page[] = await Promise.all(Array.from({ length: concurrency }, () => context.newPage()))
  const html = kind === 'pdf' ? invoiceHtml() : cardHtml()
  const once = async (page: Page) => {
    await page.setContent(html)
    if (kind === 'pdf') await page.pdf({ format: 'A4', printBackground: true })
    else await page.screenshot({ type: 'png' })
  }
  for (const page of pages) await once(page)
  const stats = await measure(PER_LEVEL, concurrency, (w) => once(pages[w]!))
  await browser.close()
  return stats
}

async function serviceRuns(
  url: string,
  key: string,
  kind: 'pdf' | 'png',
  concurrency: number,
  total = PER_LEVEL,
): Promise<RunStats> {
  const endpoint = kind === 'pdf' ? '/v1/pdf/from-html' : '/v1/images/from-html'
  const body =
    kind === 'pdf'
      ? { html: invoiceHtml(), pdf: { format: 'A4' }, delivery: 'binary' }
      : { html: cardHtml(), format: 'png', image: { width: 1200, height: 630 }, delivery: 'binary' }
  const once = async () => {
    const res = await fetch(`${url}${endpoint}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const bytes = await res.arrayBuffer()
    if (res.status !== 200)
      throw new Error(`${endpoint} answered ${res.status}: ${Buffer.from(bytes).toString().slice(0, 300)}`)
  }
  for (let i = 0; i < concurrency * 2; i++) await once()
  return measure(total, concurrency, once)
}

const SOAK_RENDERS = Number(process.env.BENCH_SOAK_RENDERS ?? 1000)

interface SoakPoint {
  renders: number
  service: number
  browsers: number
}

/** Steady memory: RSS sampled every fifth of a long run of the same render. */
async function soakRun(service: ServiceProcess, total: number): Promise<SoakPoint[]> {
  const points: SoakPoint[] = [{ renders: 0, ...service.rssMb() }]
  const step = Math.max(1, Math.round(total / 5))
  for (let done = 0; done < total; done += step) {
    await serviceRuns(service.url, service.key, 'pdf', 2, step)
    points.push({ renders: done + step, ...service.rssMb() })
  }
  return points
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits)
}

async function main() {
  const rows: Row[] = []
  let soak: SoakPoint[] = []
  // four renders at once at most, with a warm page for each
  const service = await startService({
    DOCSVC_WORKER_CONCURRENCY: '4',
    DOCSVC_PLUGIN_CHROMIUM_CONCURRENCY: '4',
    DOCSVC_PLUGIN_CHROMIUM_IDLE_PAGES_PER_WORKSPACE: '4',
  })
  try {
    for (const doc of ['pdf', 'png'] as const) {
      for (const concurrency of LEVELS) {
        const raw = await rawChromium(doc, concurrency)
        const svc = await serviceRuns(service.url, service.key, doc, concurrency)
        rows.push({ doc, concurrency, raw, service: svc })
        console.error(
          `${doc} c=${concurrency}: raw ${fmt(raw.perSecond)}/s p50 ${fmt(raw.p50, 0)} ms | service ${fmt(svc.perSecond)}/s p50 ${fmt(svc.p50, 0)} ms p95 ${fmt(svc.p95, 0)} p99 ${fmt(svc.p99, 0)}`,
        )
      }
    }
    soak = await soakRun(service, SOAK_RENDERS)
  } finally {
    const rss = service.peakRssMb()
    await service.stop()
    const lines = [
      `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${PER_LEVEL} renders per row.`,
      'Raw = playwright-core on Debian Chromium, one warm page per concurrent worker (setContent + pdf/screenshot).',
      'Service = `docsvc serve` (embedded: SQLite queue, local files), sync request with `delivery: binary`, measured end to end over HTTP.',
      '',
      '| document | c | raw docs/s | service docs/s | service / raw | raw p50 ms | service p50 ms | p50 overhead ms | service p95 ms | service p99 ms |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.doc === 'pdf' ? '2-page invoice PDF' : 'PNG 1200x630'} | ${r.concurrency} | ${fmt(r.raw.perSecond)} | ${fmt(r.service.perSecond)} | ${fmt((100 * r.service.perSecond) / r.raw.perSecond, 0)} % | ${fmt(r.raw.p50, 0)} | ${fmt(r.service.p50, 0)} | ${fmt(r.service.p50 - r.raw.p50, 0)} | ${fmt(r.service.p95, 0)} | ${fmt(r.service.p99, 0)} |`,
      ),
      '',
      `Peak RSS: service process ${fmt(rss.service, 0)} MB; its browser processes together ${fmt(rss.browsers, 0)} MB at most.`,
      '',
      `Memory over ${SOAK_RENDERS} more invoice renders at concurrency 2 (resident MB after each step):`,
      '',
      '| renders | service MB | browsers MB |',
      '|---|---|---|',
      ...soak.map((p) => `| ${p.renders} | ${fmt(p.service, 0)} | ${fmt(p.browsers, 0)} |`),
      '',
    ]
    // scripts/bench.sh gathers each benchmark's markdown into bench/RESULTS.md
    console.log(lines.join('\n'))
  }
}

await main()
