import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { Type } from 'typebox'
import { expect } from 'vitest'
import {
  type ConformanceValidator,
  conformanceReport,
  type PdfPostProcessor,
} from '../sdk/pdf-pipeline-contracts.ts'
import { runConformanceValidatorContract, runPdfPostProcessorContract } from './pdf-pipeline-contract.ts'

// The kits run here against two small real implementations, so that the kits themselves are
// exercised before the PDF/A, PDF/UA and stamping plugins of later issues run them.

const run = promisify(execFile)

async function printedPdf(title?: string): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  page.drawText('Invoice 7', { x: 72, y: 760, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) })
  if (title) doc.setTitle(title)
  return Buffer.from(await doc.save())
}

/** a stamp on every page: the shape of the TEST watermark step */
const stamp: PdfPostProcessor<{ text: string }> = {
  id: 'sample-stamp',
  phase: 'stamp',
  optionsSchema: Type.Object({ text: Type.String({ minLength: 1, maxLength: 40 }) }),
  async run(pdf, { text }, ctx) {
    ctx.signal.throwIfAborted()
    const doc = await PDFDocument.load(pdf)
    const font = await doc.embedFont(StandardFonts.HelveticaBold)
    for (const page of doc.getPages()) page.drawText(text, { x: 72, y: 72, size: 36, font })
    return { bytes: Buffer.from(await doc.save()) }
  },
}

/** a one-rule validator: the document has a title (PDF/UA's 7.1-10 in spirit) */
const titled: ConformanceValidator = {
  id: 'sample-title',
  reportKey: 'sample',
  profiles: ['pdfua-1'],
  async validate(pdf) {
    const doc = await PDFDocument.load(pdf)
    return conformanceReport(
      doc.getTitle()
        ? []
        : [{ ruleId: 'SAMPLE-TITLE', severity: 'error', message: 'the document has no title' }],
    )
  },
}

runPdfPostProcessorContract('a sample stamp', async () => ({
  processor: stamp as PdfPostProcessor,
  options: { text: 'TEST' },
  pdf: await printedPdf(),
  async expectWorkDone(output) {
    const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-stamp-'))
    const file = path.join(dir, 'out.pdf')
    writeFileSync(file, output)
    const { stdout } = await run('pdftotext', [file, '-']).finally(() => rmSync(dir, { recursive: true }))
    expect(stdout).toContain('Invoice 7')
    expect(stdout).toContain('TEST')
  },
}))

runConformanceValidatorContract('a sample title rule', async () => ({
  validator: titled,
  conforming: await printedPdf('Invoice 7'),
  violating: await printedPdf(),
  violatedRuleId: 'SAMPLE-TITLE',
}))
