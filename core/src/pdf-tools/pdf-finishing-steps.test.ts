import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { ConformanceReportJson } from '../conformance/conformance-report-json.ts'
import { createRegistries } from '../kernel/plugins/extension-points.ts'
import type { PdfTool } from '../sdk/extension-points.ts'
import {
  type ConformanceValidator,
  conformanceReport,
  type PdfPostProcessor,
} from '../sdk/pdf-pipeline-contracts.ts'
import type { RenderedFile, RenderWarningCode } from '../sdk/render-contracts.ts'
import { finishPdf } from './pdf-finishing.ts'

// finishPdf's chain with recording steps (decision 0109): registered post-processors run in
// phase order between attachments and protection, each with its own options only, the
// validators read the file before anything seals it.

/** a step that appends its id, so the file records the order the chain ran in */
function step(id: string, phase: PdfPostProcessor['phase'], key: string): PdfPostProcessor {
  return {
    id,
    phase,
    optionsSchema: Type.Object({ [key]: Type.Optional(Type.Union([Type.String(), Type.Boolean()])) }),
    async run(pdf, options) {
      return {
        bytes: Buffer.concat([pdf, Buffer.from(` ${id}${JSON.stringify(options)}`)]),
        findings: [{ ruleId: `${id}-note`, severity: 'warning', message: `${id} ran` }],
      }
    },
  }
}

function setup() {
  const tools = createRegistries().pdfTools
  const protect: PdfTool = {
    name: 'protect',
    async run([source], options) {
      return {
        files: [
          {
            bytes: Buffer.concat([source!.bytes, Buffer.from(` PROTECT${JSON.stringify(options)}`)]),
            name: 'out.pdf',
          },
        ],
      } as never
    },
  }
  tools.add('protect', protect)
  const seen: Record<string, string> = {}
  const validator: ConformanceValidator = {
    id: 'recording',
    reportKey: 'pdfa',
    profiles: ['pdfa-2b', 'pdfua-1'],
    async validate(pdf, { profile }) {
      seen[profile] = pdf.toString()
      return conformanceReport([], { profile, source: 'recording', rulesChecked: 1 })
    },
  }
  const reports: Record<string, ConformanceReportJson> = {}
  const warnings: { code: RenderWarningCode; message: string }[] = []
  const logs: string[] = []
  const deps = {
    fallbackTitle: 'doc',
    tools,
    // registered out of order: the chain orders them
    postProcessors: [
      step('seal-extra', 'protect', 'seal'),
      step('ua', 'accessibility', 'pdfua'),
      step('embed', 'embed', 'invoice'),
      step('archive', 'archive', 'pdfa'),
      step('stamp', 'stamp', 'stamp'),
    ],
    validators: [validator],
    validationBudgetMs: 5_000,
    preview: false,
    test: false,
    fetch: (() => Promise.reject(new Error('no fetch'))) as never,
    signal: new AbortController().signal,
    warn: (code: RenderWarningCode, message: string) => void warnings.push({ code, message }),
    log: (m: string) => void logs.push(m),
    logInternal: () => {},
    scratchDir: async () => '/tmp',
    report: (key: string, report: ConformanceReportJson) => {
      reports[key] = report
    },
  }
  return { deps, seen, reports, warnings, logs }
}

const printed: RenderedFile = {
  format: 'pdf',
  contentType: 'application/pdf',
  bytes: Buffer.from('PDF'),
  title: 'T',
}

describe('finishPdf with post-processors', () => {
  it('runs the given steps in phase order, validates before protection, then seals', async () => {
    const { deps, seen, reports, logs } = setup()
    const options = {
      pdfa: '2b',
      pdfua: true,
      invoice: 'x',
      stamp: 'y',
      seal: 'z',
      protect: { owner_password: 'owner-secret' },
      scale: 1,
    }
    const out = await finishPdf(printed, options, deps)
    expect(out.bytes.toString()).toBe(
      'PDF stamp{"stamp":"y"} archive{"pdfa":"2b"} ua{"pdfua":true} embed{"invoice":"x"} seal-extra{"seal":"z"} PROTECT{"owner_password":"owner-secret"}',
    )
    // the validators read the file after the conformance steps, before any sealing step
    expect(seen['pdfa-2b']).toBe(
      'PDF stamp{"stamp":"y"} archive{"pdfa":"2b"} ua{"pdfua":true} embed{"invoice":"x"}',
    )
    expect(seen['pdfua-1']).toBe(seen['pdfa-2b'])
    // each step's findings join its phase's report; the others are logged
    expect(reports.pdfa?.warnings.map((w) => w.rule_id)).toEqual(['archive-note'])
    expect(reports.pdfua?.warnings.map((w) => w.rule_id)).toEqual(['ua-note'])
    expect(logs).toContain('stamp: stamp-note stamp ran')
  })

  it('runs no step whose options are absent, null or false', async () => {
    const { deps, reports } = setup()
    const out = await finishPdf(printed, { pdfua: false, pdfa: null }, deps)
    expect(out.bytes.toString()).toBe('PDF')
    expect(reports).toEqual({})
  })

  it('fails the render when a step refuses options the API accepted (plugins differ between processes)', async () => {
    const { deps } = setup()
    await expect(finishPdf(printed, { pdfa: 7 }, deps)).rejects.toMatchObject({
      code: 'render_failed',
      message: 'The archive step does not take the options given.',
    })
  })

  it('leaves an image alone', async () => {
    const { deps } = setup()
    const png: RenderedFile = { format: 'png', contentType: 'image/png', bytes: Buffer.from('PNG') }
    expect(await finishPdf(png, { pdfa: '2b' }, deps)).toBe(png)
  })
})
