import { type ConformanceReport, conformanceReport, type Finding } from '../../sdk/pdf-pipeline-contracts.ts'

// veraPDF's machine-readable report (`verapdf --format json`, veraPDF 1.24 and later; older
// releases give `validationResult` as one object instead of a list) read into a report:
// one finding per failed check, named by the rule's clause and test number as veraPDF's rule
// sets name them (`6.1.3-1`), with the page the check's context path is on.

/** a rule failing on every glyph of a long document lists this many places, then a count */
const MAX_CHECKS_PER_RULE = 10

interface VeraCheck {
  status?: string
  context?: string
  errorMessage?: string
}

interface VeraRule {
  specification?: string
  clause?: string
  testNumber?: number | string
  status?: string
  failedChecks?: number
  description?: string
  object?: string
  checks?: VeraCheck[]
}

interface VeraValidationResult {
  compliant?: boolean
  isCompliant?: boolean
  profileName?: string
  details?: { passedRules?: number; failedRules?: number; ruleSummaries?: VeraRule[] }
}

interface VeraJob {
  validationResult?: VeraValidationResult | VeraValidationResult[]
  taskException?: { exception?: string; type?: string }
  taskResult?: { exceptionMessage?: string }[]
}

interface VeraReport {
  report?: {
    buildInformation?: { releaseDetails?: { id?: string; version?: string }[] }
    jobs?: VeraJob[]
  }
}

/** Thrown when veraPDF's output is not a report of one validated file. */
export class VeraPdfReportError extends Error {}

/** The version veraPDF's report names (its core library), or undefined. */
function versionOf(report: VeraReport): string | undefined {
  const releases = report.report?.buildInformation?.releaseDetails ?? []
  return (releases.find((r) => r.id === 'core') ?? releases[0])?.version
}

/** `root/document[0]/pages[2](12 0 obj PDPage)/...` is on page 3 */
export function pageOfContext(context: string | undefined): number | undefined {
  const match = context ? /\/pages\[(\d+)\]/.exec(context) : null
  return match ? Number(match[1]) + 1 : undefined
}

function findingsOf(rule: VeraRule): Finding[] {
  const clause = rule.clause ?? ''
  const ruleId = `${clause}-${rule.testNumber ?? '?'}`
  const failed = (rule.checks ?? []).filter((c) => (c.status ?? 'failed').toLowerCase() !== 'passed')
  const shown = failed.slice(0, MAX_CHECKS_PER_RULE)
  const base = { ruleId, severity: 'error' as const, ...(clause ? { clause } : {}) }
  if (shown.length === 0) return [{ ...base, message: rule.description ?? `veraPDF rule ${ruleId} failed` }]
  const more = Math.max((rule.failedChecks ?? failed.length) - shown.length, 0)
  return shown.map((check, i) => {
    const page = pageOfContext(check.context)
    const last = i === shown.length - 1 && more > 0
    return {
      ...base,
      message: `${check.errorMessage || rule.description || `veraPDF rule ${ruleId} failed`}${last ? ` (and ${more} more)` : ''}`,
      ...(page !== undefined ? { page } : {}),
      ...(check.context ? { object: check.context } : {}),
    }
  })
}

/** Reads `verapdf --format json` output for one file; throws VeraPdfReportError when it is none. */
export function parseVeraPdfJson(text: string): ConformanceReport {
  let parsed: VeraReport
  try {
    parsed = JSON.parse(text) as VeraReport
  } catch {
    throw new VeraPdfReportError('veraPDF printed no JSON report')
  }
  const job = parsed.report?.jobs?.[0]
  if (!job) throw new VeraPdfReportError('veraPDF reported no job')
  const results = Array.isArray(job.validationResult) ? job.validationResult : [job.validationResult]
  const result = results.find((r) => r?.details)
  if (!result?.details) {
    const why =
      job.taskException?.exception ?? job.taskResult?.[0]?.exceptionMessage ?? 'no validation result'
    throw new VeraPdfReportError(`veraPDF could not validate the file: ${why}`)
  }
  const { details } = result
  const failedRules = (details.ruleSummaries ?? []).filter(
    (r) => (r.status ?? 'failed').toLowerCase() !== 'passed',
  )
  const findings = failedRules.flatMap(findingsOf)
  // a verdict of non-compliance that lists no rule still fails: the verdict is veraPDF's
  if ((result.compliant ?? result.isCompliant) === false && findings.length === 0) {
    findings.push({
      ruleId: 'veraPDF',
      severity: 'error',
      message: `veraPDF found the file not compliant with ${result.profileName ?? 'the profile'}`,
    })
  }
  const version = versionOf(parsed)
  return conformanceReport(findings, {
    source: version ? `veraPDF ${version}` : 'veraPDF',
    rulesChecked: (details.passedRules ?? 0) + (details.failedRules ?? failedRules.length),
  })
}
