import type { Logger } from 'pino'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import type { Job } from '../sdk/queue-contracts.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import type { DeliverJobData, WebhookScheduler } from './webhook-scheduler.ts'
import { postWebhook, USER_AGENT } from './webhook-sender.ts'
import { maxAttempts, nextAttemptAt, type WebhookSettings } from './webhook-settings.ts'
import { signatureHeaders } from './webhook-signature.ts'
import type { WebhookSigningKeys } from './webhook-signing-keys.ts'

interface Target {
  url: string
  secrets: string[]
  headers: Record<string, string>
  /** null for a render's inline webhook */
  endpoint: WebhookEndpoint | null
  /** why this attempt cannot be sent at all */
  refusal?: string
}

function refused(delivery: WebhookDelivery, refusal: string): Target {
  return { url: delivery.url ?? '', secrets: [], headers: {}, endpoint: null, refusal }
}

/**
 * Runs one attempt of a delivery (the `webhook.deliver` job): signs it with every active secret,
 * posts it, logs the attempt, then settles the delivery or schedules the next attempt
 * (SPEC 6.4), and keeps the endpoint's run of failures for the 5-day switch-off.
 */
export class WebhookDeliverer {
  readonly #settings: WebhookSettings
  readonly #deliveries: WebhookDeliveryRepository
  readonly #endpoints: WebhookEndpointRepository
  readonly #scheduler: WebhookScheduler
  readonly #keys: WebhookSigningKeys
  readonly #guard: OutboundGuard
  readonly #log: Logger

  constructor(deps: {
    webhookSettings: WebhookSettings
    webhookDeliveryRepository: WebhookDeliveryRepository
    webhookEndpointRepository: WebhookEndpointRepository
    webhookScheduler: WebhookScheduler
    webhookSigningKeys: WebhookSigningKeys
    outboundGuard: OutboundGuard
    log: Logger
  }) {
    this.#settings = deps.webhookSettings
    this.#deliveries = deps.webhookDeliveryRepository
    this.#endpoints = deps.webhookEndpointRepository
    this.#scheduler = deps.webhookScheduler
    this.#keys = deps.webhookSigningKeys
    this.#guard = deps.outboundGuard
    this.#log = deps.log
  }

  handle = async (job: Job<DeliverJobData>): Promise<void> => {
    const { deliveryId, attempt: before } = job.data
    const attemptUntil = this.#scheduler.attemptUntil(this.#settings.now())
    const delivery = await this.#deliveries.startAttempt(deliveryId, before, attemptUntil)
    if (!delivery) return
    const sentAt = this.#settings.now()
    const target = await this.#target(delivery)
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...target.headers,
      ...signatureHeaders(delivery.event_id, sentAt, delivery.payload, target.secrets),
    }
    const result = target.refusal
      ? { ok: false, status: null, bodyExcerpt: null, latencyMs: 0, error: target.refusal }
      : await postWebhook(this.#guard, target.url, delivery.payload, headers, {
          timeoutMs: this.#settings.timeoutMs,
          excerptBytes: this.#settings.responseExcerptBytes,
        })
    const finishedAt = this.#settings.now()
    const next =
      result.ok || delivery.attempt >= maxAttempts(this.#settings)
        ? null
        : nextAttemptAt(this.#settings, delivery.attempt, finishedAt)
    // the endpoint's record first: whoever sees the attempt finished sees its endpoint's state
    // after it too (switched off after 5 days of failures), never the moment in between
    if (target.endpoint) await this.#recordOutcome(target.endpoint, result.ok, finishedAt)
    await this.#deliveries.finishAttempt(deliveryId, {
      attempt: delivery.attempt,
      url: target.url,
      sentAt,
      requestHeaders: headers,
      responseStatus: result.status,
      responseBody: result.bodyExcerpt,
      latencyMs: result.latencyMs,
      error: result.error,
      status: result.ok ? 'succeeded' : next ? 'failed' : 'exhausted',
      nextAttemptAt: next,
    })
  }

  async #target(delivery: WebhookDelivery): Promise<Target> {
    const now = this.#settings.now()
    if (delivery.endpoint_id) {
      const endpoint = await this.#endpoints.getById(delivery.endpoint_id)
      if (!endpoint) return refused(delivery, 'the endpoint was deleted')
      const secrets = this.#keys.activeSecrets(endpoint, now)
      return { url: endpoint.url, secrets, headers: endpoint.headers, endpoint }
    }
    // a render's own webhook: signed with the default endpoint's secrets (SPEC 6.3)
    if (!delivery.test && !delivery.url?.startsWith('https:'))
      return refused(delivery, 'live webhooks need an https URL')
    const signer = await this.#keys.defaultSigner(delivery.workspace_id, delivery.test)
    if (!signer) return refused(delivery, 'no enabled default endpoint to sign with')
    return {
      url: delivery.url ?? '',
      secrets: this.#keys.activeSecrets(signer, now),
      headers: {},
      endpoint: null,
    }
  }

  async #recordOutcome(endpoint: WebhookEndpoint, ok: boolean, at: Date): Promise<void> {
    if (ok) {
      if (endpoint.failing_since !== null) await this.#endpoints.recordSuccess(endpoint.id)
      return
    }
    if (await this.#endpoints.recordFailure(endpoint.id, at, this.#settings.disableAfterMs)) {
      this.#log.warn(
        { endpointId: endpoint.id, workspaceId: endpoint.workspace_id, disabledAt: at.toISOString() },
        'webhook endpoint disabled after failing for 5 days; listed at GET /admin/v1/webhook-endpoints/disabled',
      )
    }
  }
}
