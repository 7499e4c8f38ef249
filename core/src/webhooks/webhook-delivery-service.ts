import type { AuthContext } from '../api-keys/api-key-service.ts'
import { fromJson } from '../db/json-columns.ts'
import type { EventEnvelope } from '../events/event-types.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { DeliveryListFilter, WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import type { WebhookScheduler } from './webhook-scheduler.ts'

/** The delivery log of SPEC 4.11: list, read, replay. */
export class WebhookDeliveryService {
  readonly #deliveries: WebhookDeliveryRepository
  readonly #endpoints: WebhookEndpointRepository
  readonly #scheduler: WebhookScheduler

  constructor(deps: {
    webhookDeliveryRepository: WebhookDeliveryRepository
    webhookEndpointRepository: WebhookEndpointRepository
    webhookScheduler: WebhookScheduler
  }) {
    this.#deliveries = deps.webhookDeliveryRepository
    this.#endpoints = deps.webhookEndpointRepository
    this.#scheduler = deps.webhookScheduler
  }

  list(
    auth: AuthContext,
    filter: Omit<DeliveryListFilter, 'workspaceId' | 'test'>,
  ): Promise<WebhookDelivery[]> {
    return this.#deliveries.list({ ...filter, workspaceId: auth.workspace.id, test: auth.test })
  }

  async get(auth: AuthContext, id: string) {
    const delivery = await this.#deliveries.get(auth.workspace.id, auth.test, id)
    if (!delivery) throw new ProblemError('not_found', `No webhook delivery ${id}.`)
    return { delivery, attempts: await this.#deliveries.attempts(id) }
  }

  /**
   * Sends the stored event again as a new delivery with the same event id (SPEC 4.11): to the
   * endpoint's current URL, or to the render's own webhook URL signed by the default endpoint.
   */
  async replay(auth: AuthContext, id: string): Promise<WebhookDelivery> {
    const { delivery } = await this.get(auth, id)
    const event = fromJson<EventEnvelope>(delivery.payload, {} as EventEnvelope)
    if (delivery.endpoint_id) {
      const endpoint = await this.#endpoints.getById(delivery.endpoint_id)
      if (!endpoint) throw new ProblemError('conflict', `The endpoint ${delivery.endpoint_id} was deleted.`)
      // test events may still go to a disabled endpoint, to check it before switching it on
      if (!endpoint.enabled && event.test !== true)
        throw new ProblemError(
          'conflict',
          `The endpoint ${endpoint.id} is disabled; enable it to replay live events.`,
        )
    } else if (!(await this.#endpoints.enabledDefault(auth.workspace.id, auth.test))) {
      throw new ProblemError(
        'conflict',
        'The default endpoint, whose secret signs this webhook, is deleted or disabled.',
      )
    }
    const row = this.#scheduler.row({
      event,
      test: delivery.test,
      endpointId: delivery.endpoint_id,
      url: delivery.url,
      manual: true,
      replayOf: delivery.id,
      payload: delivery.payload,
    })
    await this.#deliveries.insertMany([row])
    await this.#scheduler.send([{ id: row.id, attempt: 0 }], new Date(row.due_at as string))
    return (await this.#deliveries.getById(row.id))!
  }
}
