// node bench/src/pdf-tools-bench.ts: the PDF tools through the API (sync, delivery url) next to
// the same job done by the qpdf command in the same run; p50 and peak RSS. Figures, not a test.
// Inputs are made by Ghostscript; each job runs BENCH_ITERATIONS times (default 10) one at a time.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { mapWithLimit } from '../../core/src/kernel/map-with-limit.ts'
import { type ServiceProcess, startService } from './service-process.ts'
import { measure, type RunStats } from './stats.ts'

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10)
const work = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-bench-'))

/** A Ghostscript PDF of `pages` A4 pages, each with a line of text. */
function ghostscriptPdf(name: string, pages: number, label: string): string {
  const program = Array.from(
    { length: pages },
    (_, i) => `/Helvetica findfont 24 scalefont setfont 72 742 moveto (${label} page ${i + 1}) show showpage`,
  ).join('\n')
  const ps = path.join(work, `${name}.ps`)
  const file = path.join(work, `${name}.pdf`)
  writeFileSync(ps, program)
  execFileSync('gs', [
    '-q',
    '-dNOPAUSE',
    '-dBATCH',
    '-dSAFER',
    '-sDEVICE=pdfwrite',
    `-sOutputFile=${file}`,
    ps,
  ])
  return file
}

async function upload(service: ServiceProcess, file: string): Promise<string> {
  for (;;) {
    const form = new FormData()
    form.append('file', new Blob([readFileSync(file)], { type: 'application/pdf' }), path.basename(file))
    const res = await fetch(`${service.url}/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}` },
      body: form,
    })
    // 100 uploads in a row meet the plan's requests per second: wait as told
    if (res.status === 429) {
      await res.text()
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000))
      continue
    }
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { id: string }).id
  }
}

async function apiJob(service: ServiceProcess, tool: string, body: object): Promise<RunStats> {
  const once = async () => {
    const res = await fetch(`${service.url}/v1/pdf-tools/${tool}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, delivery: 'url' }),
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${tool}: ${res.status} ${text.slice(0, 300)}`)
  }
  await once()
  return measure(ITERATIONS, 1, once)
}

async function qpdfJob(args: string[]): Promise<RunStats> {
  const out = path.join(work, 'qpdf-out')
  // only qpdf is timed: emptying its output folder is not part of the job
  const clean = () => {
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out)
  }
  const once = async () => {
    const result = spawnSync('qpdf', args, { cwd: out })
    if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf: ${result.stderr}`)
  }
  clean()
  await once()
  return measure(ITERATIONS, 1, once, clean)
}

const ms = (n: number) => `${n.toFixed(1)} ms`

/**
 * What durability costs a split: its 200 parts written 16 at a time, once as qpdf leaves them
 * (page cache only) and once flushed to disk as the service's file store does before a render
 * counts as succeeded (decision 0019). p50 of each.
 */
async function storeCost(big: string): Promise<{ written: number; flushed: number }> {
  const parts = path.join(work, 'parts')
  mkdirSync(parts)
  spawnSync('qpdf', ['--split-pages=1', big, 'part.pdf'], { cwd: parts })
  const files = readdirSync(parts).map((name) => readFileSync(path.join(parts, name)))
  const store = async (flush: boolean) => {
    const dir = mkdtempSync(path.join(work, 'store-'))
    await mapWithLimit(files, 16, (bytes, i) => writeFile(path.join(dir, `part-${i}.pdf`), bytes, { flush }))
  }
  const written = await measure(ITERATIONS, 1, () => store(false))
  const flushed = await measure(ITERATIONS, 1, () => store(true))
  return { written: written.p50, flushed: flushed.p50 }
}

async function main() {
  const twoPagers = Array.from({ length: 100 }, (_, i) => ghostscriptPdf(`two-${i + 1}`, 2, `Doc ${i + 1}`))
  const big = ghostscriptPdf('two-hundred', 200, 'Long')
  const fifty = ghostscriptPdf('fifty', 50, 'Fifty')
  const locked = path.join(work, 'fifty-locked.pdf')
  execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', fifty, locked])

  const service = await startService()
  try {
    const ids = [] as string[]
    for (const f of twoPagers) ids.push(await upload(service, f))
    const [bigId, fiftyId, lockedId] = [
      await upload(service, big),
      await upload(service, fifty),
      await upload(service, locked),
    ]
    const jobs: { name: string; api: () => Promise<RunStats>; cli: () => Promise<RunStats> }[] = [
      {
        name: 'merge 100 two-page PDFs',
        api: () => apiJob(service, 'merge', { sources: ids.map((id) => ({ upload_id: id })) }),
        cli: () => qpdfJob(['--empty', '--pages', ...twoPagers, '--', 'merged.pdf']),
      },
      {
        name: 'split a 200-page PDF every page',
        api: () => apiJob(service, 'split', { source: { upload_id: bigId }, every: 1 }),
        cli: () => qpdfJob(['--split-pages=1', big, 'part.pdf']),
      },
      {
        name: 'protect a 50-page PDF (AES-256)',
        api: () =>
          apiJob(service, 'protect', {
            source: { upload_id: fiftyId },
            user_password: 'user',
            owner_password: 'owner',
          }),
        cli: () => qpdfJob(['--encrypt', 'user', 'owner', '256', '--', fifty, 'protected.pdf']),
      },
      {
        name: 'unlock a 50-page PDF',
        api: () => apiJob(service, 'unlock', { source: { upload_id: lockedId }, password: 'user' }),
        cli: () => qpdfJob(['--password=user', '--decrypt', locked, 'unlocked.pdf']),
      },
    ]
    const rows: string[] = []
    for (const job of jobs) {
      const cli = await job.cli()
      const api = await job.api()
      const target = cli.p50 * 1.2 + 15
      rows.push(
        `| ${job.name} | ${ms(cli.p50)} | ${ms(api.p50)} | ${ms(api.p95)} | ${ms(target)} | ${api.p50 <= target ? 'yes' : 'no'} |`,
      )
      console.error(`${job.name}: qpdf p50 ${ms(cli.p50)}, API p50 ${ms(api.p50)}`)
    }
    const cost = await storeCost(big)
    const peak = service.peakRssMb()
    console.log(`PDF tools, ${ITERATIONS} runs each, one at a time (${new Date().toISOString()})\n`)
    console.log('| job | qpdf CLI p50 | API p50 | API p95 | target (1.2x + 15 ms) | within |')
    console.log('|---|---|---|---|---|---|')
    for (const row of rows) console.log(row)
    console.log(
      `\nThe split's 200 parts stored 16 at a time: ${ms(cost.written)} written, ${ms(cost.flushed)} written and flushed to disk (the service flushes before a render succeeds; qpdf does not).`,
    )
    console.log(
      `\nPeak RSS: service process ${peak.service.toFixed(0)} MB; its children (browser, qpdf) ${peak.browsers.toFixed(0)} MB at most together.`,
    )
  } finally {
    await service.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
