import type { Config } from '../kernel/config.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { type FieldProblem, ProblemError } from '../kernel/problem-error.ts'
import type { RenderRequest } from '../renders/render.ts'
import type { Finding } from '../sdk/pdf-pipeline-contracts.ts'
import type { ProducerContext, ProducerWork, Production } from '../sdk/producer-contracts.ts'
import { checkEinvoiceRequest, einvoiceInputOf, INVOICE_POINTER } from './einvoice-request.ts'
import { einvoiceReport, validateXml } from './einvoice-validation.ts'

/** A model finding points into the request body (`/invoice/...`), as validation problems do. */
const inRequest = (finding: Finding): Finding => ({
  ...finding,
  location: `${INVOICE_POINTER}${finding.location ?? ''}`,
})

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * Makes `einvoice` renders (SPEC 4.3): the profile's business rules on the model, its XML, then
 * every XML validator it lists. A rule broken before XML fails with einvoice_invalid, a validator's
 * error with einvoice_validation_failed, both carrying the report as `result` (failed renders are
 * not billed: the runner bills only succeeded ones).
 */
export class EinvoiceProducer implements ProducerWork {
  readonly #plugins: PluginSet
  readonly #config: Config

  constructor(deps: { plugins: PluginSet; config: Config }) {
    this.#plugins = deps.plugins
    this.#config = deps.config
  }

  validate(request: RenderRequest): void {
    checkEinvoiceRequest(request, this.#plugins.registries.einvoiceProfiles)
  }

  /** the profile's file name is the file's; the one `.xml` file is not drawn by an output plugin */
  drawsWithOutput(): boolean {
    return false
  }

  async produce(ctx: ProducerContext): Promise<Production> {
    const input = einvoiceInputOf(ctx.render.request)
    const profile = this.#plugins.registries.einvoiceProfiles.get(input.profile)
    if (!profile)
      throw new ProblemError(
        'render_failed',
        `This installation no longer offers the profile ${input.profile}.`,
      )
    const about = { profile: profile.id, syntax: input.syntax }
    const modelFindings = profile.checkModel(input.invoice).map(inRequest)
    const modelErrors = modelFindings.filter((f) => f.severity === 'error')
    ctx.log(`${profile.id} model: ${plural(modelErrors.length, 'error')}`)
    if (modelErrors.length > 0) {
      const report = einvoiceReport(modelFindings, { ...about, sources: ['docsvc'], unavailable: [] })
      const errors: FieldProblem[] = modelErrors.map((f) => ({
        path: f.location ?? INVOICE_POINTER,
        code: f.ruleId,
        message: f.message,
      }))
      throw new ProblemError(
        'einvoice_invalid',
        `The invoice breaks ${plural(modelErrors.length, 'rule')} of profile ${profile.id}; the first: ${errors[0]!.path}: ${errors[0]!.message} (${errors[0]!.code}).`,
        { errors, result: { conformance: { einvoice: report } } },
      )
    }
    const xml = profile.writeXml(input.invoice, { syntax: input.syntax, test: ctx.render.test })
    ctx.log(`${input.syntax} XML: ${xml.length} bytes`)
    const budgetMs = Math.max(
      1000,
      Math.min(this.#config.einvoiceValidationTimeoutSeconds * 1000, ctx.deadline - Date.now() - 1000),
    )
    const checked = await validateXml(xml, profile.xmlValidators, {
      syntax: input.syntax,
      signal: ctx.signal,
      budgetMs,
      log: ctx.log,
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
        `The ${input.syntax} XML of profile ${profile.id} fails ${plural(xmlErrors.length, 'check')}; the first: ${first.ruleId}${first.location ? ` at ${first.location}` : ''}: ${first.message}`,
        { result: { conformance: { einvoice: report } } },
      )
    }
    for (const gap of checked.unavailable) {
      ctx.warn(
        'einvoice_validation_unavailable',
        gap.validator === 'none'
          ? `The XML was delivered unvalidated: ${gap.reason}.`
          : `Validator ${gap.validator} ${gap.reason}; the XML was delivered without its verdict.`,
      )
    }
    const warnings = findings.filter((f) => f.severity === 'warning')
    if (warnings.length > 0) {
      ctx.warn(
        'einvoice_validation_warning',
        `The e-invoice passed with ${plural(warnings.length, 'warning')}; see result.conformance.einvoice.warnings.`,
      )
    }
    return {
      files: [
        {
          format: 'xml',
          contentType: 'application/xml',
          bytes: xml,
          filename: profile.filename(input.invoice, ctx.render.request.filename),
        },
      ],
      result: { conformance: { einvoice: report } },
    }
  }
}
