import type { AuthContext } from '../api-keys/api-key-service.ts'
import { validationProblem } from '../kernel/problem-error.ts'

/**
 * Refuses (400, naming `at`) a render's own `webhook` that could never be delivered. Inline
 * deliveries are signed with the secret of the workspace's default endpoint, so a render created
 * without one would be accepted and its webhook would only ever fail. The webhooks feature
 * registers the real check under this name; the kernel's stand-in, for a kernel without that
 * feature, refuses every inline webhook, since nothing would deliver it.
 */
export type InlineWebhookCheck = (auth: AuthContext, at: string) => Promise<void>

export const noWebhookDelivery: InlineWebhookCheck = async (_auth, at) => {
  throw validationProblem([
    {
      path: at,
      code: 'unavailable',
      message: 'this installation delivers no webhooks; leave this field out',
    },
  ])
}
