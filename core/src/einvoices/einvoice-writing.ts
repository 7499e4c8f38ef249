import { type FieldProblem, ProblemError } from '../kernel/problem-error.ts'
import type { EinvoiceModel, EinvoiceProfile, EinvoiceSyntax } from '../sdk/einvoice-contracts.ts'
import type { Finding } from '../sdk/pdf-pipeline-contracts.ts'
import type { RenderWarningCode } from '../sdk/render-contracts.ts'
import { INVOICE_POINTER } from './einvoice-request.ts'
import { einvoiceReport, validateXml } from './einvoice-validation.ts'

// The one place an invoice model becomes validated XML (SPEC 4.3, 2.16 `output.einvoice`): the
// profile's business rules, its writer, then every XML validator it lists. Used by the
// `einvoice` producer (POST /v1/einvoices) and by a PDF render that embeds an invoice.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export interface EinvoiceWork {
  test: boolean
  signal: AbortSignal
  /** the render's deadline (epoch ms): the validators' budget ends a second before it */
  deadline: number
  /** the operator's per-validator budget */
  validationTimeoutSeconds: number
  log(message: string): void
  warn(code: RenderWarningCode, message: string): void
}

export interface CheckedEinvoice {
  xml: Buffer
  /** `result.conformance.einvoice` */
  report: Record<string, unknown>
}

/**
 * The XML of `invoice` in `syntax`. A rule broken before XML fails with einvoice_invalid, a
 * validator's error with einvoice_validation_failed, both carrying the report as `result` (failed
 * renders are not billed). `at` is where the spec sits in the request body: findings point there.
 */
export async function writeCheckedEinvoice(
  profile: EinvoiceProfile,
  spec: { syntax: EinvoiceSyntax; invoice: EinvoiceModel },
  at: string,
  work: EinvoiceWork,
): Promise<CheckedEinvoice> {
  const pointer = `${at}${INVOICE_POINTER}`
  // a model finding points into the request body, as validation problems do
  const inRequest = (finding: Finding): Finding => ({
    ...finding,
    location: `${pointer}${finding.location ?? ''}`,
  })
  const about = { profile: profile.id, syntax: spec.syntax }
  const modelFindings = profile.checkModel(spec.invoice).map(inRequest)
  const modelErrors = modelFindings.filter((f) => f.severity === 'error')
  work.log(`${profile.id} model: ${plural(modelErrors.length, 'error')}`)
  if (modelErrors.length > 0) {
    const report = einvoiceReport(modelFindings, { ...about, sources: ['docsvc'], unavailable: [] })
    const errors: FieldProblem[] = modelErrors.map((f) => ({
      path: f.location ?? pointer,
      code: f.ruleId,
      message: f.message,
    }))
    throw new ProblemError(
      'einvoice_invalid',
      `The invoice breaks ${plural(modelErrors.length, 'rule')} of profile ${profile.id}; the first: ${errors[0]!.path}: ${errors[0]!.message} (${errors[0]!.code}).`,
      { errors, result: { conformance: { einvoice: report } } },
    )
  }
  const xml = profile.writeXml(spec.invoice, { syntax: spec.syntax, test: work.test })
  work.log(`${spec.syntax} XML: ${xml.length} bytes`)
  const budgetMs = Math.max(
    1000,
    Math.min(work.validationTimeoutSeconds * 1000, work.deadline - Date.now() - 1000),
  )
  const checked = await validateXml(xml, profile.xmlValidators, {
    syntax: spec.syntax,
    signal: work.signal,
    budgetMs,
    log: work.log,
  })
  const findings = [...modelFindings, ...checked.findings]
  const report = einvoiceReport(findings, {
    ...about,
    sources: checked.sources,
    unavailable: checked.unavailable,
  })
  const xmlErrors = checked.findings.filter((f) => f.severity === 'error')
  if (xmlErrors.length > 0) {
    const first = xmlErrors[0]!
    throw new ProblemError(
      'einvoice_validation_failed',
      `The ${spec.syntax} XML of profile ${profile.id} fails ${plural(xmlErrors.length, 'check')}; the first: ${first.ruleId}${first.location ? ` at ${first.location}` : ''}: ${first.message}`,
      { result: { conformance: { einvoice: report } } },
    )
  }
  for (const gap of checked.unavailable) {
    work.warn(
      'einvoice_validation_unavailable',
      gap.validator === 'none'
        ? `The XML was delivered unvalidated: ${gap.reason}.`
        : `Validator ${gap.validator} ${gap.reason}; the XML was delivered without its verdict.`,
    )
  }
  const warnings = findings.filter((f) => f.severity === 'warning')
  if (warnings.length > 0) {
    work.warn(
      'einvoice_validation_warning',
      `The e-invoice passed with ${plural(warnings.length, 'warning')}; see result.conformance.einvoice.warnings.`,
    )
  }
  return { xml, report }
}
