import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ConformanceProfile,
  type ConformanceReport,
  type ConformanceValidator,
  PDF_POST_PROCESS_PHASES,
  type PdfPostProcessContext,
  type PdfPostProcessor,
} from '../sdk/pdf-pipeline-contracts.ts'

// The suites every PDF post-processor and conformance validator passes: a step of the chain
// leaves a PDF qpdf accepts and never edits its input in place; a validator tells a conforming
// file from a violating one with rule ids, and answers a file that is no PDF without crashing.

const run = promisify(execFile)

export interface PdfPostProcessorSubject {
  processor: PdfPostProcessor
  /** options that make it do its work */
  options: Record<string, unknown>
  /** a printed PDF, as the chain hands it over */
  pdf: Buffer
  /** the password qpdf needs to read the output (a protection step) */
  outputPassword?: string
  /** what a user sees of its work, checked on the output (text, attachments, encryption) */
  expectWorkDone(output: Buffer): Promise<void>
}

/** `qpdf --check` on the bytes: the structure a later step and every viewer relies on */
async function expectQpdfAccepts(bytes: Buffer, dir: string, password?: string): Promise<void> {
  const file = path.join(dir, `check-${Date.now()}.pdf`)
  writeFileSync(file, bytes)
  const args = ['--check', ...(password ? [`--password=${password}`] : []), file]
  const outcome = await run('qpdf', args).then(
    () => 'ok',
    (error: { code?: number; stdout?: string }) =>
      error.code === 3 ? 'ok' : `qpdf: ${error.stdout ?? error}`,
  )
  expect(outcome, 'qpdf --check (exit 3 is warnings only)').toBe('ok')
}

export function runPdfPostProcessorContract(
  name: string,
  setup: () => Promise<PdfPostProcessorSubject>,
): void {
  describe(`PDF post-processor contract: ${name}`, () => {
    let subject: PdfPostProcessorSubject
    let scratch: string
    const ctx = (signal = AbortSignal.timeout(30_000)): PdfPostProcessContext => ({
      signal,
      log() {},
      scratchDir: async () => scratch,
      test: false,
    })

    beforeAll(async () => {
      subject = await setup()
      scratch = mkdtempSync(path.join(tmpdir(), 'docsvc-postprocess-contract-'))
    })
    afterAll(() => {
      if (scratch) rmSync(scratch, { recursive: true, force: true })
    })

    it('declares a phase of the chain and an options schema its options fit', () => {
      expect(PDF_POST_PROCESS_PHASES).toContain(subject.processor.phase)
      expect(Value.Check(subject.processor.optionsSchema, subject.options)).toBe(true)
    })

    it('does its work and leaves a PDF qpdf accepts, without editing its input in place', async () => {
      const input = Buffer.from(subject.pdf)
      const result = await subject.processor.run(input, subject.options, ctx())
      expect(input.equals(subject.pdf), 'the input buffer was changed').toBe(true)
      expect(result.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      await expectQpdfAccepts(result.bytes, scratch, subject.outputPassword)
      await subject.expectWorkDone(result.bytes)
      for (const finding of result.findings ?? []) {
        expect(finding).toMatchObject({
          ruleId: expect.stringMatching(/\S/),
          message: expect.stringMatching(/\S/),
        })
      }
    })

    it('stops when its signal is aborted', async () => {
      await expect(
        subject.processor.run(subject.pdf, subject.options, ctx(AbortSignal.abort())),
      ).rejects.toThrow()
    })
  })
}

export interface ConformanceValidatorSubject {
  validator: ConformanceValidator
  /** a file that meets the standard */
  conforming: Buffer
  /** a file that breaks it, and a rule id the report must name */
  violating: Buffer
  violatedRuleId: string
  /** the profile both files are checked against (default: the validator's first) */
  profile?: ConformanceProfile
}

function expectConsistent(report: ConformanceReport): void {
  expect(report.valid).toBe(report.errors.length === 0)
  for (const finding of [...report.errors, ...report.warnings]) {
    expect(finding.ruleId).toMatch(/\S/)
    expect(finding.message).toMatch(/\S/)
  }
  expect(report.errors.every((f) => f.severity === 'error')).toBe(true)
  expect(report.warnings.every((f) => f.severity === 'warning')).toBe(true)
}

export function runConformanceValidatorContract(
  name: string,
  setup: () => Promise<ConformanceValidatorSubject>,
): void {
  describe(`conformance validator contract: ${name}`, () => {
    let subject: ConformanceValidatorSubject
    const options = () => ({
      signal: AbortSignal.timeout(60_000),
      profile: subject.profile ?? subject.validator.profiles[0]!,
    })
    beforeAll(async () => {
      subject = await setup()
    })

    it('reports under a result.conformance key and names the profiles it checks', () => {
      expect(subject.validator.reportKey).toMatch(/^[a-z][a-z0-9_]*$/)
      expect(subject.validator.profiles.length).toBeGreaterThan(0)
    })

    it('passes a conforming file', async () => {
      const report = await subject.validator.validate(subject.conforming, options())
      expectConsistent(report)
      expect(report.errors).toEqual([])
    })

    it('fails a violating file, naming the rule', async () => {
      const report = await subject.validator.validate(subject.violating, options())
      expectConsistent(report)
      expect(report.valid).toBe(false)
      expect(report.errors.map((f) => f.ruleId)).toContain(subject.violatedRuleId)
    })

    it('answers a file that is no PDF with a failed report or an error, never by passing it', async () => {
      const outcome = await subject.validator.validate(Buffer.from('<html>not a pdf</html>'), options()).then(
        (report) => report,
        () => undefined,
      )
      if (outcome) {
        expectConsistent(outcome)
        expect(outcome.valid).toBe(false)
      }
    })
  })
}
