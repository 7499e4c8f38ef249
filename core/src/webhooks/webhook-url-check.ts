import { type FieldProblem, ProblemError } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'

/**
 * Why an endpoint URL is refused at `pointer`, or undefined (SPEC 2.12, 6.4): absolute, no
 * credentials, https for live endpoints (http allowed in test mode), and every address the name
 * resolves to now must be reachable under the outbound guard. Deliveries are checked again at
 * connection time, so a name that rebinds later is still refused.
 */
export async function endpointUrlProblem(
  guard: OutboundGuard,
  text: string,
  test: boolean,
  pointer = '/url',
): Promise<FieldProblem | undefined> {
  const problem = (message: string): FieldProblem => ({ path: pointer, code: 'url_not_allowed', message })
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { path: pointer, code: 'format', message: 'must be an absolute URL' }
  }
  if (url.protocol !== 'https:' && !(test && url.protocol === 'http:'))
    return problem(
      test ? 'must be an http or https URL' : 'must be an https URL (http only for test-mode endpoints)',
    )
  if (url.username || url.password) return problem('must not carry credentials')
  try {
    await guard.resolveChecked(url)
  } catch (err) {
    if (err instanceof ProblemError) return problem(err.detail ?? err.message)
    throw err
  }
  return undefined
}
