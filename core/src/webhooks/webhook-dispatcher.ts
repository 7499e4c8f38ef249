import type { Insertable, Kysely } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Database } from '../db/schema.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { EventEnvelope } from '../events/event-types.ts'
import type { RenderService } from '../renders/render-service.ts'
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import type { WebhookScheduler } from './webhook-scheduler.ts'
import type { WebhookSettings } from './webhook-settings.ts'
import {
  eventRenderId,
  type InlineWebhook,
  inlineWants,
  isRenderEvent,
  subscribedEndpoints,
} from './webhook-subscriptions.ts'
import type { WebhookDeliveryTable } from './webhook-tables.ts'

/**
 * Turns outbox events into deliveries. Claiming the events and writing their deliveries share
 * one transaction, so a process that dies in between leaves the events pending for the next.
 */
export class WebhookDispatcher {
  readonly #db: Db
  readonly #outbox: EventOutbox
  readonly #endpoints: WebhookEndpointRepository
  readonly #deliveries: WebhookDeliveryRepository
  readonly #scheduler: WebhookScheduler
  readonly #settings: WebhookSettings
  readonly #renders: Pick<RenderService, 'inlineWebhooks'>

  constructor(deps: {
    db: Db
    eventOutbox: EventOutbox
    webhookEndpointRepository: WebhookEndpointRepository
    webhookDeliveryRepository: WebhookDeliveryRepository
    webhookScheduler: WebhookScheduler
    webhookSettings: WebhookSettings
    renderService: Pick<RenderService, 'inlineWebhooks'>
  }) {
    this.#db = deps.db
    this.#outbox = deps.eventOutbox
    this.#endpoints = deps.webhookEndpointRepository
    this.#deliveries = deps.webhookDeliveryRepository
    this.#scheduler = deps.webhookScheduler
    this.#settings = deps.webhookSettings
    this.#renders = deps.renderService
  }

  /**
   * Turns up to `limit` pending events into deliveries, due now; `WebhookScheduler.sendDue` puts
   * them on the queue. The number of events taken.
   */
  async dispatchPending(limit = 200): Promise<number> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      const events = await this.#outbox.claimPending(trx, limit, this.#settings.now())
      if (events.length === 0) return 0
      const endpoints = await this.#endpoints.enabledIn([...new Set(events.map((e) => e.workspace_id))], trx)
      const inline = await this.#inlineWebhooks(trx, events)
      const rows = events.flatMap((event) =>
        this.#deliveriesFor(event, endpoints, inline.get(event.id) ?? null),
      )
      await this.#deliveries.insertMany(rows, trx)
      return events.length
    })
  }

  #deliveriesFor(
    event: EventEnvelope,
    endpoints: WebhookEndpoint[],
    inline: InlineWebhook | null,
  ): Insertable<WebhookDeliveryTable>[] {
    const common = { event, manual: false, sendNow: false }
    const rows = subscribedEndpoints(event, endpoints, inline).map((endpoint) =>
      this.#scheduler.row({ ...common, test: endpoint.test, endpointId: endpoint.id, url: null }),
    )
    if (inlineWants(event, inline))
      rows.push(
        this.#scheduler.row({ ...common, test: event.test === true, endpointId: null, url: inline.url }),
      )
    return rows
  }

  /** The inline `webhook` of each render event's render, by event id, read through the renders service. */
  async #inlineWebhooks(trx: Kysely<Database>, events: EventEnvelope[]): Promise<Map<string, InlineWebhook>> {
    const renderIds = events
      .filter(isRenderEvent)
      .map(eventRenderId)
      .filter((id): id is string => id !== null)
    const byRender = await this.#renders.inlineWebhooks([...new Set(renderIds)], trx)
    const found = new Map<string, InlineWebhook>()
    for (const event of events) {
      const webhook = byRender.get(eventRenderId(event) ?? '')
      if (webhook) found.set(event.id, webhook)
    }
    return found
  }
}
