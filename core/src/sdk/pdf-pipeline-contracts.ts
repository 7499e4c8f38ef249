import type { TObject } from 'typebox'

// After printing, a PDF goes through an ordered chain of post-processors, then validators
// (DESIGN.md §4). Each declares its phase; the chain's order is PDF_POST_PROCESS_PHASES, then
// `order` within a phase, then id, so that protection always comes last (nothing can edit an
// encrypted file) and the PDF/A step sees the attachments it must declare.

export const PDF_POST_PROCESS_PHASES = [
  /** the TEST watermark of test renders, stamps */
  'stamp',
  /** `pdf.attachments` */
  'attach',
  /** PDF/A: output intent, XMP, AF relationships */
  'archive',
  /** PDF/UA and tagging */
  'accessibility',
  /** the e-invoice XML of a hybrid PDF/A-3b */
  'embed',
  /** `pdf.protect`: encryption, always last */
  'protect',
] as const

export type PdfPostProcessPhase = (typeof PDF_POST_PROCESS_PHASES)[number]

export type FindingSeverity = 'error' | 'warning'

/** One rule a document or model broke, as `result.conformance.*` lists it. */
export interface Finding {
  /** the rule's id in its standard, e.g. `6.2.11.4.1` (veraPDF), `BR-CO-10`, `UA1:7.1-3` */
  ruleId: string
  severity: FindingSeverity
  message: string
  /** where: a JSON Pointer into a model, an XPath into XML, `page 3` in a PDF */
  location?: string
  /** the clause of the standard the rule comes from, e.g. `6.2.11.4.1` (ISO 19005-2), `7.18.1` */
  clause?: string
  /** the 1-based page the finding is on, when it is on one */
  page?: number
  /** the PDF object it is about, e.g. `12 0 obj (PDFont /F1)` or veraPDF's context path */
  object?: string
  /** who found it, where one report merges several checkers (`XSD`, `KoSIT validator`) */
  source?: string
}

/** The standards a PDF can be checked against (`docsvc conformance check --profile`). */
export const CONFORMANCE_PROFILES = ['pdfa-2b', 'pdfa-3b', 'pdfua-1'] as const
export type ConformanceProfile = (typeof CONFORMANCE_PROFILES)[number]

export interface ConformanceReport {
  /** no finding of severity error */
  valid: boolean
  errors: Finding[]
  warnings: Finding[]
  /** the profile checked: a ConformanceProfile, or an e-invoice profile */
  profile?: string
  /** who gave the verdict: `docsvc` (built in) or an external validator with its version */
  source?: string
  /**
   * the rules this check covers, so a reader knows what a clean report means: their ids, or only
   * their number when the validator does not list them (veraPDF's report counts passed rules)
   */
  rulesChecked?: string[] | number
}

/** builds a report from findings, so `valid`, `errors` and `warnings` never disagree */
export function conformanceReport(
  findings: readonly Finding[],
  about: Pick<ConformanceReport, 'profile' | 'source' | 'rulesChecked'> = {},
): ConformanceReport {
  const errors = findings.filter((f) => f.severity === 'error')
  return {
    valid: errors.length === 0,
    errors,
    warnings: findings.filter((f) => f.severity === 'warning'),
    ...about,
  }
}

export interface PdfPostProcessContext {
  signal: AbortSignal
  log(message: string): void
  /** the render's private scratch folder (see PdfToolContext) */
  scratchDir(): Promise<string>
  /** a test render (watermarked, free) */
  test: boolean
}

export interface PdfPostProcessResult {
  bytes: Buffer
  /** what the step found or could not do; reported under `result.conformance[reportKey]` */
  findings?: Finding[]
}

export interface PdfPostProcessor<O = Record<string, unknown>> {
  readonly id: string
  readonly phase: PdfPostProcessPhase
  /** position within the phase, lower first (default 0) */
  readonly order?: number
  /** the render options it takes (validated before run); it runs only when they are given */
  readonly optionsSchema: TObject
  run(pdf: Buffer, options: O, ctx: PdfPostProcessContext): Promise<PdfPostProcessResult>
}

export interface ConformanceValidateOptions {
  signal: AbortSignal
  /** the standard to check against; a validator is asked only for profiles it lists */
  profile: ConformanceProfile
}

/** Checks a finished PDF against a standard; the report goes to `result.conformance[reportKey]`. */
export interface ConformanceValidator {
  readonly id: string
  /** `pdfa`, `pdfua` or `einvoice` (SPEC 2.4 `result.conformance`) */
  readonly reportKey: string
  /** the profiles it checks */
  readonly profiles: readonly ConformanceProfile[]
  validate(pdf: Buffer, options: ConformanceValidateOptions): Promise<ConformanceReport>
}

/** The one place for the chain's order: phase, then `order`, then id. */
export function orderPostProcessors<P extends Pick<PdfPostProcessor, 'id' | 'phase' | 'order'>>(
  processors: readonly P[],
): P[] {
  const rank = (p: P) => PDF_POST_PROCESS_PHASES.indexOf(p.phase)
  return [...processors].sort(
    (a, b) => rank(a) - rank(b) || (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id),
  )
}
