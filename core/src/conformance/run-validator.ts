import { causeText } from '../kernel/problem-error.ts'
import type {
  ConformanceProfile,
  ConformanceReport,
  ConformanceValidator,
} from '../sdk/pdf-pipeline-contracts.ts'

// Asks the validators of a profile for a report, each within a time budget (decision 0109):
// an external validator (veraPDF, when the operator installed one) first, then the validators of
// plugins the operator added, then the built-in one (an installed validator is meant to be asked).
// The first that answers gives the verdict; one that throws or overruns is passed over, and when
// none answers the caller gives SPEC 7.4's `*_validation_unavailable` warning.

/** the ids of the external veraPDF validators start so: their verdict comes first */
export const VERAPDF_ID_PREFIX = 'verapdf'

export type ValidatorOutcome =
  | { report: ConformanceReport }
  /**
   * why no validator answered: `unavailable` for the client's warning (no validator's own
   * words: they may name files and paths of the installation), `detail` for logs and the CLI
   */
  | { unavailable: string; detail: string }

export interface ValidateOptions {
  profile: ConformanceProfile
  /** the render's (or the command's) own signal: its abort is no timeout and is thrown */
  signal: AbortSignal
  /** how long one validator may take */
  budgetMs: number
  /** the render's log, which its client reads: no validator's own words */
  log(message: string): void
}

/** the ids of the validators docsvc ships (plugins/pdf-validator) start so: they answer last */
export const BUILT_IN_ID_PREFIX = 'docsvc-'

/** The validators that check a profile: veraPDF's, then added plugins', then the built-in, each by id. */
export function validatorsFor(
  validators: Iterable<ConformanceValidator>,
  profile: ConformanceProfile,
): ConformanceValidator[] {
  const rank = (v: ConformanceValidator) =>
    v.id.startsWith(VERAPDF_ID_PREFIX) ? 0 : v.id.startsWith(BUILT_IN_ID_PREFIX) ? 2 : 1
  return [...validators]
    .filter((v) => v.profiles.includes(profile))
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
}

export async function validateWithin(
  validators: readonly ConformanceValidator[],
  pdf: Buffer,
  options: ValidateOptions,
): Promise<ValidatorOutcome> {
  if (validators.length === 0) {
    const none = `no validator for ${options.profile} is installed`
    return { unavailable: none, detail: none }
  }
  const reasons = new Set<string>()
  const details: string[] = []
  for (const validator of validators) {
    const outcome = await askOne(validator, pdf, options)
    if ('report' in outcome) return outcome
    options.log(`validator ${validator.id} (${options.profile}): ${outcome.unavailable}`)
    reasons.add(outcome.unavailable)
    details.push(`${validator.id}: ${outcome.detail}`)
  }
  return { unavailable: [...reasons].join('; '), detail: details.join('; ') }
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
    if (budget.aborted) {
      const late = `no answer within ${budgetMs} ms`
      return { unavailable: late, detail: late }
    }
    return { unavailable: 'the validator failed', detail: `failed: ${causeText(err)}` }
  } finally {
    stop()
  }
}
