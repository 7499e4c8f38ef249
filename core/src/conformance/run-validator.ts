import { causeText } from '../kernel/problem-error.ts'
import type {
  ConformanceProfile,
  ConformanceReport,
  ConformanceValidator,
} from '../sdk/pdf-pipeline-contracts.ts'

// Asks the validators of a profile for a report, each within a time budget (decision 0109):
// an external validator (veraPDF, when the operator installed one) first, then the plugins'.
// The first that answers gives the verdict; one that throws or overruns is passed over, and when
// none answers the caller gives SPEC 7.4's `*_validation_unavailable` warning.

/** the ids of the external veraPDF validators start so: their verdict comes first */
export const VERAPDF_ID_PREFIX = 'verapdf'

export type ValidatorOutcome =
  | { report: ConformanceReport }
  /** why no validator answered, for the warning and the log */
  | { unavailable: string }

export interface ValidateOptions {
  profile: ConformanceProfile
  /** the render's (or the command's) own signal: its abort is no timeout and is thrown */
  signal: AbortSignal
  /** how long one validator may take */
  budgetMs: number
  log(message: string): void
}

/** The validators that check a profile, veraPDF's first, then by id. */
export function validatorsFor(
  validators: Iterable<ConformanceValidator>,
  profile: ConformanceProfile,
): ConformanceValidator[] {
  const rank = (v: ConformanceValidator) => (v.id.startsWith(VERAPDF_ID_PREFIX) ? 0 : 1)
  return [...validators]
    .filter((v) => v.profiles.includes(profile))
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
}

export async function validateWithin(
  validators: readonly ConformanceValidator[],
  pdf: Buffer,
  options: ValidateOptions,
): Promise<ValidatorOutcome> {
  if (validators.length === 0) return { unavailable: `no validator for ${options.profile} is installed` }
  const reasons: string[] = []
  for (const validator of validators) {
    const outcome = await askOne(validator, pdf, options)
    if ('report' in outcome) return outcome
    options.log(`validator ${validator.id} (${options.profile}): ${outcome.unavailable}`)
    reasons.push(`${validator.id}: ${outcome.unavailable}`)
  }
  return { unavailable: reasons.join('; ') }
}

async function askOne(
  validator: ConformanceValidator,
  pdf: Buffer,
  { profile, signal, budgetMs }: ValidateOptions,
): Promise<ValidatorOutcome> {
  const budget = AbortSignal.timeout(budgetMs)
  const both = AbortSignal.any([signal, budget])
  // a validator that does not watch its signal is not waited for past the budget either
  let stop = () => {}
  const stopped = new Promise<never>((_, reject) => {
    const onAbort = () => reject(both.reason)
    both.addEventListener('abort', onAbort, { once: true })
    stop = () => both.removeEventListener('abort', onAbort)
  })
  stopped.catch(() => {})
  try {
    const report = await Promise.race([validator.validate(pdf, { signal: both, profile }), stopped])
    return { report: { ...report, profile: report.profile ?? profile } }
  } catch (err) {
    signal.throwIfAborted()
    if (budget.aborted) return { unavailable: `no answer within ${budgetMs} ms` }
    return { unavailable: `failed: ${causeText(err)}` }
  } finally {
    stop()
  }
}
