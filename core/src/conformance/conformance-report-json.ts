import type { ConformanceReport, Finding } from '../sdk/pdf-pipeline-contracts.ts'

// The one JSON shape of a conformance report: `result.conformance.pdfa` / `.pdfua` of a render
// (SPEC 2.4) and `docsvc conformance check --json` alike (decision 0109).

export interface FindingJson {
  rule_id: string
  clause: string | null
  page: number | null
  object: string | null
  message: string
  location?: string
}

export interface ConformanceReportJson {
  valid: boolean
  profile: string | null
  /** who gave the verdict (`docsvc`, `veraPDF 1.26.2`); null when no validator answered */
  source: string | null
  /** how many rules the verdict covers (0 when no validator answered) */
  rules_checked: number
  errors: FindingJson[]
  warnings: FindingJson[]
}

export function findingJson(finding: Finding): FindingJson {
  return {
    rule_id: finding.ruleId,
    clause: finding.clause ?? null,
    page: finding.page ?? null,
    object: finding.object ?? null,
    message: finding.message,
    ...(finding.location ? { location: finding.location } : {}),
  }
}

export function conformanceReportJson(report: ConformanceReport): ConformanceReportJson {
  const { rulesChecked } = report
  return {
    valid: report.valid,
    profile: report.profile ?? null,
    source: report.source ?? null,
    rules_checked: typeof rulesChecked === 'number' ? rulesChecked : (rulesChecked?.length ?? 0),
    errors: report.errors.map(findingJson),
    warnings: report.warnings.map(findingJson),
  }
}
