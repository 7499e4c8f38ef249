import type { ProblemCode } from '../kernel/problem-codes.ts'
import type { ConformanceProfile } from '../sdk/pdf-pipeline-contracts.ts'
import { makesTaggedPdf } from '../sdk/pdf-tagging.ts'
import type { RenderWarningCode } from '../sdk/render-contracts.ts'

// Which standards a render's PDF options ask to be checked against, and what a failed or
// missing report does to the render (SPEC 2.4, 7.3, 7.4; decision 0109).

/** One report a render owes: the profile, where it goes, and what its outcome does. */
export interface ConformanceCheck {
  profile: ConformanceProfile
  /** `result.conformance.<reportKey>` */
  reportKey: 'pdfa' | 'pdfua'
  /** the 422 a report with errors ends the render with; undefined: the report never fails it */
  failCode?: Extract<ProblemCode, 'pdfa_conversion_failed' | 'pdfua_validation_failed'>
  /** SPEC 7.4's warning when no validator answers in time */
  unavailable: RenderWarningCode
  /** what the warning and the failure call the standard */
  title: string
}

const PDFA_PROFILES: Record<string, ConformanceProfile> = { '2b': 'pdfa-2b', '3b': 'pdfa-3b' }

/**
 * The checks of `pdf.pdfa` ('2b' or '3b'), `pdf.pdfua: true`, and a tagged PDF (`tagged`, or
 * `outline`: `makesTaggedPdf`) without pdfua (a PDF/UA-1 report that never fails the render, SPEC 7.4
 * `accessibility_validation_unavailable`). A preview never fails on a report (SPEC 4.10).
 */
export function conformanceChecks(
  options: Record<string, unknown>,
  { preview }: { preview: boolean },
): ConformanceCheck[] {
  const checks: ConformanceCheck[] = []
  const pdfa = typeof options.pdfa === 'string' ? PDFA_PROFILES[options.pdfa] : undefined
  if (pdfa) {
    checks.push({
      profile: pdfa,
      reportKey: 'pdfa',
      ...(preview ? {} : { failCode: 'pdfa_conversion_failed' as const }),
      unavailable: 'pdfa_validation_unavailable',
      title: pdfa === 'pdfa-2b' ? 'PDF/A-2b' : 'PDF/A-3b',
    })
  }
  if (options.pdfua === true) {
    checks.push({
      profile: 'pdfua-1',
      reportKey: 'pdfua',
      ...(preview ? {} : { failCode: 'pdfua_validation_failed' as const }),
      unavailable: 'pdfua_validation_unavailable',
      title: 'PDF/UA-1',
    })
  } else if (makesTaggedPdf(options)) {
    checks.push({
      profile: 'pdfua-1',
      reportKey: 'pdfua',
      unavailable: 'accessibility_validation_unavailable',
      title: 'PDF/UA-1',
    })
  }
  return checks
}

/** The SPEC's reportKey of a post-processor's phase: its findings join that report. */
export function reportKeyOfPhase(phase: string): 'pdfa' | 'pdfua' | undefined {
  if (phase === 'archive') return 'pdfa'
  if (phase === 'accessibility') return 'pdfua'
  return undefined
}
