import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../kernel/config.ts'
import { FAKE_RENDER_BUILTINS } from '../../renders/fake-render-plugins.fixture.ts'
import type { ConformanceValidator } from '../../sdk/pdf-pipeline-contracts.ts'
import { startTestKernel } from '../../testing/index.ts'
import { loadTestPlugins } from '../../testing/load-test-plugins.ts'
import { runConformanceValidatorContract } from '../../testing/pdf-pipeline-contract.ts'
import { conformanceReportJson } from '../conformance-report-json.ts'
import { validateWithin, validatorsFor } from '../run-validator.ts'
import { parseVeraPdfJson } from './verapdf-report.ts'
import { veraPdfPlugin } from './verapdf-validator.ts'

// The veraPDF validator against a stand-in that prints veraPDF's documented JSON report
// (fixtures/verapdf-stand-in.mjs): veraPDF itself needs Java and cannot be installed here.

const run = promisify(execFile)
const STAND_IN = fileURLToPath(new URL('./fixtures/verapdf-stand-in.mjs', import.meta.url))
const scratch = mkdtempSync(path.join(tmpdir(), 'docsvc-verapdf-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const { registries } = await loadTestPlugins({ plugins: [veraPdfPlugin(STAND_IN)] })
const validator = (id: string) => registries.conformanceValidators.get(id) as ConformanceValidator

/** a one-page PDF; with text, in Helvetica, which PDF/A forbids (not embedded) */
async function pdf({ text }: { text?: string } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  page.drawRectangle({ x: 72, y: 700, width: 100, height: 50, color: rgb(0.2, 0.4, 0.6) })
  if (text)
    page.drawText(text, { x: 72, y: 760, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) })
  // qpdf writes the trailer /ID a conforming file has
  const input = path.join(scratch, `in-${Math.random()}.pdf`)
  const output = `${input}.out.pdf`
  // uncompressed objects: the stand-in reads the font dictionaries in the bytes
  writeFileSync(input, await doc.save({ useObjectStreams: false }))
  await run('qpdf', ['--object-streams=disable', input, output])
  return readFileSync(output)
}

runConformanceValidatorContract('veraPDF (stand-in)', async () => ({
  validator: validator('verapdf-pdfa'),
  conforming: await pdf(),
  violating: await pdf({ text: 'Invoice 7' }),
  violatedRuleId: '6.2.11.4.1-1',
  profile: 'pdfa-2b',
}))

describe('the veraPDF validator', () => {
  const signal = () => AbortSignal.timeout(60_000)

  it('reads the failed rule with its clause, page, object and message; names veraPDF and its rule count', async () => {
    const report = await validator('verapdf-pdfa').validate(await pdf({ text: 'Invoice 7' }), {
      signal: signal(),
      profile: 'pdfa-3b',
    })
    expect(conformanceReportJson(report)).toEqual({
      valid: false,
      profile: 'pdfa-3b',
      source: 'veraPDF 1.26.2',
      rules_checked: 146,
      errors: [
        {
          rule_id: '6.2.11.4.1-1',
          clause: '6.2.11.4.1',
          page: 1,
          object: expect.stringMatching(/^root\/document\[0\]\/pages\[0\]\(\d+ 0 obj PDPage\).*Helvetica/),
          message: 'The font program is not embedded',
        },
      ],
      warnings: [],
    })
  })

  it('asks for PDF/UA-1 with the ua1 flavour', async () => {
    const report = await validator('verapdf-pdfua').validate(await pdf(), {
      signal: signal(),
      profile: 'pdfua-1',
    })
    expect(report.errors.map((f) => f.ruleId)).toEqual(['5-1', '7.1-8'])
    expect(report.rulesChecked).toBe(106)
  })

  it('throws, with veraPDF’s words, on a file veraPDF cannot parse', async () => {
    await expect(
      validator('verapdf-pdfa').validate(Buffer.from('<html>no pdf</html>'), {
        signal: signal(),
        profile: 'pdfa-2b',
      }),
    ).rejects.toThrow(/veraPDF could not validate the file: Couldn't parse stream \(exit 7\)/)
  })

  it('kills veraPDF when its signal aborts (the render’s budget)', async () => {
    const pidFile = path.join(scratch, 'hang.pid')
    process.env.VERAPDF_STAND_IN_PID_FILE = pidFile
    try {
      const hanging = Buffer.concat([await pdf(), Buffer.from('\n%standin-hang\n')])
      const controller = new AbortController()
      const validating = validator('verapdf-pdfa').validate(hanging, {
        signal: controller.signal,
        profile: 'pdfa-2b',
      })
      // aborted once the stand-in runs, whenever that is
      while (!existsPid(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20))
      controller.abort(new Error('budget spent'))
      await expect(validating).rejects.toThrow('budget spent')
      const pid = Number(readFileSync(pidFile, 'utf8'))
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/)
    } finally {
      delete process.env.VERAPDF_STAND_IN_PID_FILE
    }
  })

  it('stops a veraPDF whose output passes the bound', async () => {
    const flooding = Buffer.concat([await pdf(), Buffer.from('\n%standin-flood\n')])
    await expect(
      validator('verapdf-pdfa').validate(flooding, { signal: signal(), profile: 'pdfa-2b' }),
    ).rejects.toThrow(/more than \d+ bytes of output/)
  })

  it('gives the first verdict; the built-in validator answers when veraPDF does not', async () => {
    const builtin: ConformanceValidator = {
      id: 'builtin',
      reportKey: 'pdfa',
      profiles: ['pdfa-2b'],
      validate: async () => ({
        valid: true,
        errors: [],
        warnings: [],
        source: 'docsvc',
        rulesChecked: ['6.1.3-1'],
      }),
    }
    const ordered = validatorsFor([builtin, validator('verapdf-pdfa')], 'pdfa-2b')
    expect(ordered.map((v) => v.id)).toEqual(['verapdf-pdfa', 'builtin'])
    // the validator docsvc ships answers after one an operator added
    const shipped = { ...builtin, id: 'docsvc-pdfa' }
    expect(validatorsFor([shipped, builtin, validator('verapdf-pdfa')], 'pdfa-2b').map((v) => v.id)).toEqual([
      'verapdf-pdfa',
      'builtin',
      'docsvc-pdfa',
    ])
    const log: string[] = []
    const options = {
      profile: 'pdfa-2b' as const,
      signal: signal(),
      budgetMs: 30_000,
      log: (m: string) => log.push(m),
    }
    const first = await validateWithin(ordered, await pdf(), options)
    expect(first).toMatchObject({ report: { source: 'veraPDF 1.26.2', valid: true } })
    const fallback = await validateWithin(ordered, Buffer.from('not a pdf'), options)
    expect(fallback).toMatchObject({ report: { source: 'docsvc' } })
    expect(log).toEqual(['validator verapdf-pdfa (pdfa-2b): the validator failed'])
    const unanswered = await validateWithin([validator('verapdf-pdfa')], Buffer.from('not a pdf'), options)
    // the client's words and the operator's: veraPDF's own only in the latter
    expect(unanswered).toEqual({
      unavailable: 'the validator failed',
      detail: expect.stringMatching(
        /^verapdf-pdfa: failed: veraPDF could not validate the file: Couldn't parse stream/,
      ),
    })
  })
})

function existsPid(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').length > 0
  } catch {
    return false
  }
}

describe('reading veraPDF reports', () => {
  it('takes the older shape (one validationResult object, upper-case statuses) and bounds the places per rule', () => {
    const checks = Array.from({ length: 14 }, (_, i) => ({
      status: 'FAILED',
      context: `root/document[0]/pages[${i}](${i + 3} 0 obj PDPage)`,
      errorMessage: 'Transparency used',
    }))
    const report = parseVeraPdfJson(
      JSON.stringify({
        report: {
          jobs: [
            {
              validationResult: {
                isCompliant: false,
                details: {
                  passedRules: 140,
                  failedRules: 1,
                  ruleSummaries: [
                    { clause: '6.2.10', testNumber: 1, status: 'FAILED', failedChecks: 14, checks },
                  ],
                },
              },
            },
          ],
        },
      }),
    )
    expect(report.source).toBe('veraPDF')
    expect(report.rulesChecked).toBe(141)
    expect(report.errors).toHaveLength(10)
    expect(report.errors[9]).toMatchObject({
      ruleId: '6.2.10-1',
      page: 10,
      message: 'Transparency used (and 4 more)',
    })
  })

  it('refuses output that is no report', () => {
    expect(() => parseVeraPdfJson('Exception in thread "main"')).toThrow(/printed no JSON report/)
  })
})

describe('DOCSVC_VERAPDF_PATH', () => {
  it('refuses to start with a path that is no executable', () => {
    expect(() => loadConfig({ DOCSVC_VERAPDF_PATH: '/nowhere/verapdf' })).toThrow(
      /DOCSVC_VERAPDF_PATH: \/nowhere\/verapdf is not an executable file/,
    )
  })

  it("adds veraPDF's validators to a rendering installation; a file veraPDF cannot read gets the next validator's report", async () => {
    const t = await startTestKernel({
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_VERAPDF_PATH: STAND_IN },
    })
    try {
      expect(t.kernel.plugins.registries.conformanceValidators.keys()).toEqual(
        expect.arrayContaining(['verapdf-pdfa', 'verapdf-pdfua']),
      )
      const ws = await t.createWorkspace({ plan: 'scale' })
      // the fake output's file is no PDF: veraPDF cannot parse it, the fixture validator answers
      const res = await t.inject({
        method: 'POST',
        url: '/v1/renders',
        key: ws.testKey,
        payload: { input: { type: 'html', html: 'x' }, output: { format: 'pdf', pdf: { pdfa: '2b' } } },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().result.conformance.pdfa.source).toBe('fake-validator 1')
      expect(res.json().warnings).toEqual([])
    } finally {
      await t.close()
    }
  })
})
