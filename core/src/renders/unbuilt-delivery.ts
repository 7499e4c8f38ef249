import { validationProblem } from '../kernel/problem-error.ts'
import type { RenderRequest } from './render.ts'

/**
 * Email and storage delivery are not built yet (their issues come later): a request that names
 * rules or destinations is refused at those fields instead of being accepted and its files never
 * sent. Runs after the hosting check, so SPEC's 422 email_needs_hosted_file keeps its place.
 */
export function refuseUnbuiltDelivery(delivery: RenderRequest['delivery']): void {
  const problems = []
  if ((delivery.email?.length ?? 0) > 0)
    problems.push({
      path: '/delivery/email',
      code: 'unavailable',
      message:
        'email delivery is not available on this installation yet; leave delivery.email out and send the files from your webhook handler',
    })
  if ((delivery.storage?.length ?? 0) > 0)
    problems.push({
      path: '/delivery/storage',
      code: 'unavailable',
      message:
        'storage delivery is not available on this installation yet; leave delivery.storage out and download the files from their links',
    })
  if (problems.length > 0) throw validationProblem(problems)
}
