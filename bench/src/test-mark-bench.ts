// node bench/src/test-mark-bench.ts: what the TEST mark adds to a test render, stamped on the
// finished file (core/src/test-mark): Chromium-printed PDFs of 1 and 50 pages, and 1200x630
// images in each format. Figures, not a test.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { stampTestImage } from '../../core/src/test-mark/image-test-mark.ts'
import { stampTestMark } from '../../core/src/test-mark/pdf-test-mark.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 40)
const CHROMIUM = process.env.DOCSVC_CHROMIUM_PATH ?? 'chromium'

/** A PDF of `pages` pages as Chromium prints it (text, a table, a heading per page). */
function chromiumPdf(pages: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-mark-bench-'))
  try {
    const body = Array.from(
      { length: pages },
      (_, i) =>
        `<section style="break-after: page"><h1>Invoice page ${i + 1}</h1><table>${'<tr><td>Consulting</td><td>3</td><td>12.50</td></tr>'.repeat(20)}</table></section>`,
    ).join('')
    writeFileSync(path.join(dir, 'doc.html'), `<!doctype html><meta charset="utf-8"><body>${body}</body>`)
    const out = path.join(dir, 'doc.pdf')
    execFileSync(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-pdf-header-footer',
        `--print-to-pdf=${out}`,
        `file://${path.join(dir, 'doc.html')}`,
      ],
      { stdio: 'ignore' },
    )
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** p50 of wall and CPU milliseconds per call, one call at a time (CPU: this process's only). */
async function timed(task: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = []
  const cpus: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage()
    const started = performance.now()
    await task()
    walls.push(performance.now() - started)
    const used = process.cpuUsage(cpu)
    cpus.push((used.user + used.system) / 1000)
  }
  const p50 = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!
  return { wall: p50(walls), cpu: p50(cpus) }
}

const rows: string[] = []
for (const pages of [1, 50]) {
  const pdf = chromiumPdf(pages)
  await stampTestMark(pdf) // the font subset is cut once per process
  const stats = await timed(() => stampTestMark(pdf))
  const out = await stampTestMark(pdf)
  rows.push(
    `| PDF, ${pages} page${pages === 1 ? '' : 's'} (${Math.round(pdf.length / 1024)} KB) | ${stats.wall.toFixed(1)} | ${stats.cpu.toFixed(1)} | +${Math.round((out.length - pdf.length) / 1024)} KB |`,
  )
}
const photo = await sharp({
  create: { width: 1200, height: 630, channels: 3, background: '#336699' },
})
  .png()
  .toBuffer()
for (const format of ['png', 'jpeg', 'webp'] as const) {
  const image = await sharp(photo).toFormat(format).toBuffer()
  await stampTestImage(image, format)
  const stats = await timed(() => stampTestImage(image, format))
  const out = await stampTestImage(image, format)
  rows.push(
    `| ${format.toUpperCase()} 1200x630 | ${stats.wall.toFixed(1)} | ${stats.cpu.toFixed(1)} | ${out.length - image.length >= 0 ? '+' : ''}${Math.round((out.length - image.length) / 1024)} KB |`,
  )
}
console.log(
  [
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}; ${RUNS} stamps each, one at a time`,
    '',
    '| file | wall ms (p50) | CPU ms (p50) | size change |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n'),
)
