// node bench/src/pdf-pool-bench.ts: what the killable PDF threads cost a pdf-tools metadata read
// (docs/decisions/0025): the pdf-lib part in a WorkerPool thread, its bytes moved by a transfer
// list (what the tool does), next to the same task function called in-process, taking turns.
// Figures, not a test.
import { cpus, loadavg } from 'node:os'
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { runPdfTask, stopPdfWorkers } from '../../plugins/pdf-tools/src/pdf-workers.ts'
import metadataTask, { type MetadataTaskInput } from '../../plugins/pdf-tools/src/tasks/metadata-task.ts'
import { measureInTurn, type RunStats } from './stats.ts'

const ROUNDS = Number(process.env.BENCH_RENDERS ?? 300)
const WARMUP = 30
const TASK = new URL('../../plugins/pdf-tools/src/tasks/metadata-task.ts', import.meta.url)

async function samplePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.setTitle('Bench')
  for (let i = 0; i < pages; i++)
    doc.addPage([595, 842]).drawText(`Page ${i + 1}`, { x: 50, y: 780, font, size: 12 })
  return Buffer.from(await doc.save())
}

// a fresh copy per call, as the tool has (its source's bytes): a moved buffer is gone afterwards
const input = (pdf: Buffer): MetadataTaskInput => {
  const bytes = new Uint8Array(pdf.length)
  bytes.set(pdf)
  return { bytes, head: pdf.subarray(0, 1024), encryption: 'none' }
}

async function viaPool(pdf: Buffer): Promise<void> {
  const job = input(pdf)
  await runPdfTask(TASK, job, {
    signal: new AbortController().signal,
    subject: 'Reading the source',
    transfer: [job.bytes.buffer as ArrayBuffer],
  })
}

async function inProcess(pdf: Buffer): Promise<void> {
  await metadataTask(input(pdf))
}

const cold = performance.now()
await viaPool(await samplePdf(1))
const coldMs = performance.now() - cold

console.log(
  `pdf-tools metadata read (pdf-lib load + report), ${ROUNDS} rounds per side taking turns, ` +
    `${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(1)}; first task of a cold pool (thread start, ` +
    `module import) ${coldMs.toFixed(0)} ms`,
)
console.log('\n| PDF | side | p50 ms | p95 ms | p50 overhead ms |\n|---|---|---:|---:|---:|')
for (const pages of [2, 200, 2000]) {
  const pdf = await samplePdf(pages)
  const sides = [{ task: () => viaPool(pdf) }, { task: () => inProcess(pdf) }]
  await measureInTurn(WARMUP, sides)
  const [pool, local] = (await measureInTurn(ROUNDS, sides)) as [RunStats, RunStats]
  const label = `${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB`
  console.log(
    `| ${label} | PDF thread | ${pool.p50.toFixed(2)} | ${pool.p95.toFixed(2)} | ${(pool.p50 - local.p50).toFixed(2)} |`,
  )
  console.log(`| ${label} | in-process | ${local.p50.toFixed(2)} | ${local.p95.toFixed(2)} | |`)
}
await stopPdfWorkers()
