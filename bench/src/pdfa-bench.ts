// node bench/src/pdfa-bench.ts: a plain PDF print next to the same print made PDF/A-2b by the
// pdfa post-processor (called directly on Chromium's output, in the pdf-tools worker pool), for
// a 1-page and a 50-page document (each page: CJK text, emoji, SVG, transparency, form inputs,
// links, a table, images); p50 of each side, the two sides in turn in the same run, after
// one warm-up of each. Figures, not a test. BENCH_ITERATIONS rounds (default 20).
import { cpus, loadavg } from 'node:os'
import { chromiumPrinter, pagesHtml } from '../../plugins/pdf-tools/src/archive/chromium-print.fixture.ts'
import { pdfaProcessor } from '../../plugins/pdf-tools/src/archive/pdfa-processor.ts'
import { stopPdfWorkers } from '../../plugins/pdf-tools/src/pdf-workers.ts'
import { measureInTurn } from './stats.ts'

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20)
const ctx = () => ({
  signal: AbortSignal.timeout(120_000),
  log() {},
  scratchDir: async () => '/tmp',
  test: false,
})

const printer = await chromiumPrinter()
const rows: string[] = []
try {
  for (const pages of [1, 50]) {
    const html = pagesHtml(pages)
    const plain = async () => {
      await printer.print(html)
    }
    let stepMs: number[] = []
    const archival = async () => {
      const pdf = await printer.print(html)
      const t0 = performance.now()
      await pdfaProcessor.run(pdf, { pdfa: '2b' }, ctx())
      stepMs.push(performance.now() - t0)
    }
    await plain()
    await archival()
    stepMs = []
    const [base, pdfa] = await measureInTurn(ITERATIONS, [{ task: plain }, { task: archival }])
    const step = stepMs.sort((a, b) => a - b)[Math.floor(stepMs.length / 2)] ?? 0
    const percent = (ms: number) => `${((ms / base!.p50) * 100).toFixed(0)} %`
    rows.push(
      `| ${pages} page${pages === 1 ? '' : 's'} | ${base!.p50.toFixed(0)} | ${pdfa!.p50.toFixed(0)} | ${percent(pdfa!.p50 - base!.p50)} | ${step.toFixed(0)} | ${percent(step)} |`,
    )
  }
} finally {
  await printer.close()
  await stopPdfWorkers()
}
console.log(
  [
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}; ${ITERATIONS} rounds, one at a time`,
    'Plain = playwright-core print on Debian Chromium (setContent + pdf); PDF/A = the same print, then the pdfa post-processor (2b).',
    '',
    // the difference of two noisy p50s moves with the machine's load; the step's own p50 does not
    '| document | plain p50 ms | PDF/A p50 ms | added (p50s) | PDF/A step p50 ms | added (step / plain p50) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
)
