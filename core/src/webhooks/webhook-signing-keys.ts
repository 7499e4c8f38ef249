import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import type { WebhookSecretBox } from './webhook-secrets.ts'

/** Which secrets sign a delivery: the endpoint's current one, and a rolled one while it lives. */
export class WebhookSigningKeys {
  readonly #box: WebhookSecretBox
  readonly #endpoints: WebhookEndpointRepository

  constructor(deps: {
    webhookSecretBox: WebhookSecretBox
    webhookEndpointRepository: WebhookEndpointRepository
  }) {
    this.#box = deps.webhookSecretBox
    this.#endpoints = deps.webhookEndpointRepository
  }

  activeSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
    const secrets = [this.#box.open(endpoint.secret)]
    if (
      endpoint.previous_secret &&
      endpoint.previous_secret_expires_at &&
      endpoint.previous_secret_expires_at > now.toISOString()
    ) {
      secrets.push(this.#box.open(endpoint.previous_secret))
    }
    return secrets
  }

  /** The endpoint whose secrets sign inline webhooks (SPEC 6.3): the enabled default one. */
  defaultSigner(workspaceId: string, test: boolean): Promise<WebhookEndpoint | undefined> {
    return this.#endpoints.enabledDefault(workspaceId, test)
  }
}
