import { ProblemError } from '../kernel/problem-error.ts'
import {
  type ConformanceValidator,
  conformanceReport,
  type Finding,
  type PdfPostProcessContext,
} from '../sdk/pdf-pipeline-contracts.ts'
import type { RenderWarningCode } from '../sdk/render-contracts.ts'
import { type ConformanceCheck, conformanceChecks, reportKeyOfPhase } from './conformance-checks.ts'
import type { PlannedStep } from './conformance-options.ts'
import { type ConformanceReportJson, conformanceReportJson } from './conformance-report-json.ts'
import { validateWithin, validatorsFor } from './run-validator.ts'

// The part of finishing between attachments and protection (decision 0109): the registered
// post-processors the options call for (PDF/A, PDF/UA...), then a validator's report for each
// standard asked, on the unencrypted bytes (no validator reads an encrypted file, and PDF/A
// refuses protect anyway). A report with errors ends a render with its 422, the report in
// `result`; a preview only carries it.

export interface ConformanceStageDeps extends Omit<PdfPostProcessContext, 'test'> {
  test: boolean
  /** a preview never fails on a report (SPEC 4.10) */
  preview: boolean
  validators: Iterable<ConformanceValidator>
  /** how long one validator may take before the render goes on without its report */
  validationBudgetMs: number
  warn(code: RenderWarningCode, message: string): void
  /** the installation's log (never the client's): what a failing validator said */
  logInternal(message: string): void
  /** `result.conformance.<key>` of the render */
  report(key: string, report: ConformanceReportJson): void
}

/** Runs the planned steps in order; returns the bytes and each report key's findings. */
export async function runSteps(
  bytes: Buffer,
  steps: readonly PlannedStep[],
  deps: ConformanceStageDeps,
): Promise<{ bytes: Buffer; findings: Map<string, Finding[]> }> {
  const findings = new Map<string, Finding[]>()
  let current = bytes
  for (const { processor, options } of steps) {
    deps.log(`post-process ${processor.id} (${processor.phase})`)
    const out = await processor.run(current, options, {
      signal: deps.signal,
      log: deps.log,
      scratchDir: deps.scratchDir,
      test: deps.test,
    })
    current = out.bytes
    const key = reportKeyOfPhase(processor.phase)
    for (const finding of out.findings ?? []) {
      if (key) findings.set(key, [...(findings.get(key) ?? []), finding])
      else deps.log(`${processor.id}: ${finding.ruleId} ${finding.message}`)
    }
  }
  return { bytes: current, findings }
}

/**
 * Validates `bytes` for every standard the options ask, merging each step's findings into the
 * report of its key; throws the check's 422 when a report that may fail the render has errors.
 */
export async function validateConformance(
  bytes: Buffer,
  options: Record<string, unknown>,
  stepFindings: ReadonlyMap<string, Finding[]>,
  deps: ConformanceStageDeps,
): Promise<void> {
  const failures: { check: ConformanceCheck; report: ConformanceReportJson }[] = []
  for (const check of conformanceChecks(options, { preview: deps.preview })) {
    const outcome = await validateWithin(validatorsFor(deps.validators, check.profile), bytes, {
      profile: check.profile,
      signal: deps.signal,
      budgetMs: deps.validationBudgetMs,
      log: deps.log,
    })
    const found = stepFindings.get(check.reportKey) ?? []
    let json: ConformanceReportJson
    if ('report' in outcome) {
      const { report } = outcome
      deps.log(`${check.title} report from ${report.source ?? 'a validator'}: ${report.errors.length} errors`)
      json = conformanceReportJson(
        conformanceReport([...found, ...report.errors, ...report.warnings], {
          profile: check.profile,
          ...(report.source ? { source: report.source } : {}),
          ...(report.rulesChecked !== undefined ? { rulesChecked: report.rulesChecked } : {}),
        }),
      )
    } else {
      deps.logInternal(`${check.title} validation unavailable: ${outcome.detail}`)
      deps.warn(
        check.unavailable,
        `No ${check.title} report: ${outcome.unavailable}; the file is delivered without one.`,
      )
      json = conformanceReportJson(conformanceReport(found, { profile: check.profile }))
    }
    deps.report(check.reportKey, json)
    if (check.failCode && !json.valid) failures.push({ check, report: json })
  }
  const [first] = failures
  if (first) {
    const rules = first.report.errors.map((e) => e.rule_id)
    throw new ProblemError(
      first.check.failCode!,
      `The PDF does not meet ${first.check.title}: ${rules.length} error${rules.length === 1 ? '' : 's'} (${[...new Set(rules)].slice(0, 5).join(', ')}); the report is in result.conformance.${first.check.reportKey}.`,
    )
  }
}
