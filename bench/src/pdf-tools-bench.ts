// node bench/src/pdf-tools-bench.ts: the PDF tools through the API (sync, delivery url) next to
// the same job done by the qpdf command in the same run; p50 and peak RSS. Figures, not a test.
// Inputs are made by Ghostscript; each job runs BENCH_ITERATIONS times (default 20) one at a time
// on each side, after one warm-up run.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { flushEach, flushFileSystem } from '../../core/src/files/flush-files.ts'
import { type ServiceProcess, startService } from './service-process.ts'
import { measure, type RunStats } from './stats.ts'

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20)
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

/** One request through the API; throws unless it answers 200. */
function apiJob(service: ServiceProcess, tool: string, body: object): () => Promise<void> {
  return async () => {
    const res = await fetch(`${service.url}/v1/pdf-tools/${tool}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, delivery: 'url' }),
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${tool}: ${res.status} ${text.slice(0, 300)}`)
  }
}

/** One qpdf command in an emptied folder (emptying it is not timed). */
function qpdfJob(args: string[]): { clean(): void; run(): Promise<void> } {
  const out = path.join(work, 'qpdf-out')
  return {
    clean() {
      rmSync(out, { recursive: true, force: true })
      mkdirSync(out)
    },
    async run() {
      const result = spawnSync('qpdf', args, { cwd: out })
      if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf: ${result.stderr}`)
    },
  }
}

/** Each side once to warm up, then ITERATIONS qpdf runs, then ITERATIONS API runs. */
async function bothSides(
  cli: ReturnType<typeof qpdfJob>,
  api: () => Promise<void>,
): Promise<{ cli: RunStats; api: RunStats }> {
  cli.clean()
  await cli.run()
  const cliStats = await measure(ITERATIONS, 1, cli.run, cli.clean)
  // qpdf's last output goes, and what its runs left to the disk (writes, freed blocks to
  // discard) is settled before the API's turn: the service's flushes must not pay for it
  cli.clean()
  spawnSync('sync')
  await api()
  return { cli: cliStats, api: await measure(ITERATIONS, 1, api) }
}

const ms = (n: number) => `${n.toFixed(1)} ms`

/**
 * What durability costs a split's 200 parts, as the service stores them (decision 0020): renamed
 * into a folder only (what qpdf leaves: page cache), then flushed by one `sync -f` of the file
 * system, and, for comparison, by a flush of each file. p50 of each.
 */
async function flushCost(big: string): Promise<{ renamed: number; syncfs: number; each: number }> {
  let round = 0
  let batch = { parts: '', store: '', names: [] as string[] }
  // a fresh split's parts, not timed
  const moveIn = () => {
    const parts = path.join(work, `parts-${round}`)
    const store = path.join(work, `store-${round++}`)
    mkdirSync(parts)
    mkdirSync(store)
    spawnSync('qpdf', ['--split-pages=1', big, 'part.pdf'], { cwd: parts })
    batch = { parts, store, names: readdirSync(parts) }
  }
  const timed = async (flush: (store: string, names: string[]) => Promise<void>) => {
    const stats = await measure(
      ITERATIONS,
      1,
      async () => {
        const { parts, store, names } = batch
        for (const name of names) renameSync(path.join(parts, name), path.join(store, name))
        await flush(store, names)
      },
      moveIn,
    )
    return stats.p50
  }
  const renamed = await timed(async () => {})
  // the service's own two ways of flushing (core/src/files/flush-files.ts)
  const syncfs = await timed(async (store) => {
    if (!(await flushFileSystem(store))) throw new Error('sync -f failed')
  })
  const each = await timed((store, names) => flushEach(names.map((name) => path.join(store, name))))
  return { renamed, syncfs, each }
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
    const jobs: { name: string; api: () => Promise<void>; cli: ReturnType<typeof qpdfJob> }[] = [
      {
        name: 'merge 100 two-page PDFs',
        api: apiJob(service, 'merge', { sources: ids.map((id) => ({ upload_id: id })) }),
        cli: qpdfJob(['--empty', '--pages', ...twoPagers, '--', 'merged.pdf']),
      },
      {
        name: 'split a 200-page PDF every page',
        api: apiJob(service, 'split', { source: { upload_id: bigId }, every: 1 }),
        cli: qpdfJob(['--split-pages=1', big, 'part.pdf']),
      },
      {
        name: 'protect a 50-page PDF (AES-256)',
        api: apiJob(service, 'protect', {
          source: { upload_id: fiftyId },
          user_password: 'user',
          owner_password: 'owner',
        }),
        cli: qpdfJob(['--encrypt', 'user', 'owner', '256', '--', fifty, 'protected.pdf']),
      },
      {
        name: 'unlock a 50-page PDF',
        api: apiJob(service, 'unlock', { source: { upload_id: lockedId }, password: 'user' }),
        cli: qpdfJob(['--password=user', '--decrypt', locked, 'unlocked.pdf']),
      },
    ]
    const rows: string[] = []
    for (const job of jobs) {
      const { cli, api } = await bothSides(job.cli, job.api)
      const target = cli.p50 * 1.2 + 15
      rows.push(
        `| ${job.name} | ${ms(cli.p50)} | ${ms(api.p50)} | ${ms(api.p95)} | ${ms(target)} | ${api.p50 <= target ? 'yes' : 'no'} |`,
      )
      console.error(`${job.name}: qpdf p50 ${ms(cli.p50)}, API p50 ${ms(api.p50)}`)
    }
    const cost = await flushCost(big)
    const peak = service.peakRssMb()
    console.log(`PDF tools, ${ITERATIONS} runs each, one at a time (${new Date().toISOString()})\n`)
    console.log('| job | qpdf CLI p50 | API p50 | API p95 | target (1.2x + 15 ms) | within |')
    console.log('|---|---|---|---|---|---|')
    for (const row of rows) console.log(row)
    console.log(
      `\nDurability of the split's 200 parts (decision 0020): renamed into a folder ${ms(cost.renamed)}; renamed and flushed by one \`sync -f\` ${ms(cost.syncfs)} (what the service does); renamed and each file flushed ${ms(cost.each)}. The qpdf command flushes nothing.`,
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
