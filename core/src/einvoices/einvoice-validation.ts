import type { EinvoiceSyntax, EinvoiceXmlValidator } from '../sdk/einvoice-contracts.ts'
import { type ConformanceReport, conformanceReport, type Finding } from '../sdk/pdf-pipeline-contracts.ts'

/** A validator that gave no verdict: too slow, failing, or none for the syntax. */
export interface UnavailableValidator {
  validator: string
  reason: string
}

export interface XmlValidation {
  findings: Finding[]
  /** the verdicts' sources, in validator order */
  sources: string[]
  unavailable: UnavailableValidator[]
}

class BudgetSpent extends Error {}

/** Settles with the work, or rejects once the signal aborts: a validator that ignores its signal is not waited for. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new BudgetSpent())
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new BudgetSpent())
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

/**
 * Runs every XML validator of the syntax side by side, each within `budgetMs` (and the render's
 * own signal). A validator that runs out of time or fails gives no verdict and is listed as
 * unavailable, never counted as "valid". Findings carry the source that raised them. The heavy
 * work of each validator runs off the event loop (a child process, a daemon over HTTP).
 */
export async function validateXml(
  xml: Buffer,
  validators: readonly EinvoiceXmlValidator[],
  options: { syntax: EinvoiceSyntax; signal: AbortSignal; budgetMs: number; log(message: string): void },
): Promise<XmlValidation> {
  const applicable = validators.filter((v) => v.syntaxes.includes(options.syntax))
  const budget = AbortSignal.any([options.signal, AbortSignal.timeout(options.budgetMs)])
  const outcomes = await Promise.all(
    applicable.map(async (validator) => {
      const started = Date.now()
      try {
        const report: ConformanceReport = await untilAborted(
          validator.validate(xml, { syntax: options.syntax, signal: budget }),
          budget,
        )
        options.log(
          `validator ${validator.id}: ${report.errors.length} errors, ${report.warnings.length} warnings in ${Date.now() - started} ms`,
        )
        return { validator, report }
      } catch (err) {
        // the render itself stopped (canceled, its deadline): not a validator's failure
        if (options.signal.aborted) throw err
        const reason =
          err instanceof BudgetSpent || budget.aborted
            ? `gave no answer within ${Math.round(options.budgetMs / 1000)} s`
            : `failed (${err instanceof Error ? err.message.split('\n')[0]?.slice(0, 200) : String(err)})`
        options.log(`validator ${validator.id} ${reason}`)
        return { validator, reason }
      }
    }),
  )
  const findings: Finding[] = []
  const sources: string[] = []
  const unavailable: UnavailableValidator[] = []
  for (const outcome of outcomes) {
    if ('reason' in outcome) {
      unavailable.push({ validator: outcome.validator.id, reason: outcome.reason })
      continue
    }
    const source = outcome.report.source ?? outcome.validator.id
    sources.push(source)
    for (const finding of [...outcome.report.errors, ...outcome.report.warnings])
      findings.push({ ...finding, source: finding.source ?? source })
  }
  if (applicable.length === 0) {
    unavailable.push({
      validator: 'none',
      reason: `no validator checks ${options.syntax} XML for this profile on this installation`,
    })
  }
  return { findings, sources, unavailable }
}

/** The report of `result.conformance.einvoice`: model findings, then the validators'. */
export function einvoiceReport(
  findings: Finding[],
  about: { profile: string; syntax: EinvoiceSyntax; sources: string[]; unavailable: UnavailableValidator[] },
): Record<string, unknown> {
  const source = about.sources.length > 0 ? about.sources.join(', ') : undefined
  return {
    ...conformanceReport(findings, { profile: about.profile, ...(source ? { source } : {}) }),
    syntax: about.syntax,
    // what was not checked, so a clean report never hides a validator that gave no verdict
    ...(about.unavailable.length > 0 ? { unavailable: about.unavailable } : {}),
  }
}
