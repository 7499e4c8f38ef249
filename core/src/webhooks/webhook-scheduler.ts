import type { Insertable } from 'kysely'
import type { Logger } from 'pino'
import type { EventEnvelope } from '../events/event-types.ts'
import { newId } from '../kernel/ids.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookSettings } from './webhook-settings.ts'
import { eventRenderId } from './webhook-subscriptions.ts'
import type { WebhookDeliveryTable } from './webhook-tables.ts'

export const WEBHOOK_DELIVER_JOB = 'webhook.deliver'
const SEND_PARALLEL = 16
/**
 * How long a delivery is held while its job is being sent. Only once the queue has the job is the
 * hold stretched to `queuedUntil`: a process killed between the lease and the send (or a send that
 * fails) leaves the delivery due again within seconds, not after the long queued hold.
 */
const SEND_LEASE_MS = 30_000

export interface DeliverJobData {
  deliveryId: string
  /** attempts made when the job was sent: a job for an attempt that already ran does nothing */
  attempt: number
}

export interface NewDelivery {
  event: EventEnvelope
  /** the mode of the endpoint (or render) it goes to: who may list it */
  test: boolean
  endpointId: string | null
  /** an inline webhook's URL */
  url: string | null
  manual: boolean
  replayOf?: string
  /** the stored body of the delivery replayed, byte for byte */
  payload?: string
  /**
   * false: left for `sendDue`, which keeps the queue short (fan-out); true (default): the caller
   * sends its job at once (a test event, a replay)
   */
  sendNow?: boolean
}

/**
 * Puts deliveries on the durable queue. The deliveries table holds the schedule (the queue has
 * no start-after): `sendDue` leases due deliveries (new ones, retries, ones whose job was lost
 * with its process) and sends a job for each, keeping at most `maxQueued` of them waiting, so a
 * burst of events does not bury the queue.
 */
export class WebhookScheduler {
  readonly #queue: QueueBackend
  readonly #settings: WebhookSettings
  readonly #deliveries: WebhookDeliveryRepository
  readonly #log: Logger

  constructor(deps: {
    queue: QueueBackend
    webhookSettings: WebhookSettings
    webhookDeliveryRepository: WebhookDeliveryRepository
    log: Logger
  }) {
    this.#queue = deps.queue
    this.#settings = deps.webhookSettings
    this.#deliveries = deps.webhookDeliveryRepository
    this.#log = deps.log
  }

  /** The row of a new delivery, due now; leased to the job the caller sends, unless `sendNow` is false. */
  row(d: NewDelivery): Insertable<WebhookDeliveryTable> {
    const now = this.#settings.now()
    const at = now.toISOString()
    return {
      id: newId('webhookDelivery'),
      workspace_id: d.event.workspace_id,
      test: d.test ? 1 : 0,
      endpoint_id: d.endpointId,
      url: d.url,
      event_id: d.event.id,
      event_type: d.event.type,
      render_id: eventRenderId(d.event),
      payload: d.payload ?? JSON.stringify(d.event),
      status: 'pending',
      attempt: 0,
      manual: d.manual ? 1 : 0,
      replay_of: d.replayOf ?? null,
      next_attempt_at: at,
      due_at: (d.sendNow === false ? now : this.sendingUntil(now)).toISOString(),
      last_attempt_at: null,
      response_status: null,
      response_body: null,
      latency_ms: null,
      error: null,
      created_at: at,
      updated_at: at,
    }
  }

  /**
   * Until when a job waiting on the queue holds a delivery. The queue keeps the job across
   * restarts, so this only catches a job that was never sent or was lost; it is long, so a
   * backlog of jobs is not sent a second time while it waits.
   */
  queuedUntil(now: Date): Date {
    return new Date(now.getTime() + this.#settings.requeueAfterMs)
  }

  /** Until when a delivery is held while its job is being sent (SEND_LEASE_MS). */
  sendingUntil(now: Date): Date {
    return new Date(now.getTime() + SEND_LEASE_MS)
  }

  /** Until when a running attempt holds a delivery: its whole time limit and a margin. */
  attemptUntil(now: Date): Date {
    return new Date(now.getTime() + this.#settings.timeoutMs + 60_000)
  }

  /**
   * Sends one job per delivery leased until `leasedUntil` (their `sendingUntil`), then stretches
   * the hold of those the queue took to `queuedUntil`; one whose send failed is due again when its
   * short lease ends, and `sendDue` sends it then.
   */
  async send(deliveries: readonly { id: string; attempt: number }[], leasedUntil: Date): Promise<void> {
    const options = {
      priority: 'normal' as const,
      timeoutSeconds: Math.ceil(this.#settings.timeoutMs / 1000) + 30,
      // a job taken by a worker that then died is retried by the queue once its lease ends
      // (the delivery waits ~40 s, not the 10 minutes of `queuedUntil`); the attempt count in
      // the job fences it, so a retry after the attempt started sends nothing and the
      // attempt's own lease (`attemptUntil`) brings the delivery back instead
      maxAttempts: 2,
    }
    const queued: string[] = []
    const sendOne = async (d: { id: string; attempt: number }) => {
      const data: DeliverJobData = { deliveryId: d.id, attempt: d.attempt }
      await this.#queue.send(WEBHOOK_DELIVER_JOB, data, options).then(
        () => queued.push(d.id),
        (err: unknown) => {
          this.#log.warn({ err, deliveryId: d.id }, 'webhook delivery job not queued; the scheduler retries')
        },
      )
    }
    // a few sends in flight: a fan-out of hundreds does not wait on one round trip each
    for (let i = 0; i < deliveries.length; i += SEND_PARALLEL) {
      await Promise.all(deliveries.slice(i, i + SEND_PARALLEL).map(sendOne))
    }
    // only rows still on the short lease: a job that already ran has moved its delivery on
    await this.#deliveries.extendLease(queued, leasedUntil, this.queuedUntil(this.#settings.now()))
  }

  /** Leases and sends the deliveries that are due, as far as the queue has room; the number sent. */
  async sendDue(limit = 500): Promise<number> {
    const now = this.#settings.now()
    const room = this.#settings.maxQueued - (await this.#deliveries.countHeld(now))
    if (room <= 0) return 0
    const leasedUntil = this.sendingUntil(now)
    const due = await this.#deliveries.leaseDue(now, leasedUntil, Math.min(limit, room))
    await this.send(due, leasedUntil)
    return due.length
  }
}
