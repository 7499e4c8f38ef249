import { validationProblem } from '../kernel/problem-error.ts'
import type { InlineWebhookCheck } from '../renders/inline-webhook-check.ts'
import type { WebhookSigningKeys } from './webhook-signing-keys.ts'

/**
 * A render's own webhook is taken only when the default endpoint that will sign its deliveries
 * exists and is enabled in the key's mode: the same lookup the deliverer signs with, asked at
 * creation instead of after the render, when the only trace would be a failed delivery.
 */
export function inlineWebhookSignerCheck(
  keys: Pick<WebhookSigningKeys, 'defaultSigner'>,
): InlineWebhookCheck {
  return async (auth, at) => {
    if (await keys.defaultSigner(auth.workspace.id, auth.test)) return
    const mode = auth.test ? 'test' : 'live'
    throw validationProblem([
      {
        path: at,
        code: 'default_endpoint_required',
        message:
          `a render's own webhook is signed with the secret of the workspace's default webhook endpoint, and this workspace has no enabled default endpoint for ${mode} keys. ` +
          `Create one with POST /v1/webhook-endpoints and "is_default": true using a ${mode} key (or enable the existing one with PATCH), or leave this field out`,
      },
    ])
  }
}
