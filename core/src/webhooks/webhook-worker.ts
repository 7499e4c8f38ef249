import type { Logger } from 'pino'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import type { WebhookDeliverer } from './webhook-deliverer.ts'
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookDispatcher } from './webhook-dispatcher.ts'
import { type DeliverJobData, WEBHOOK_DELIVER_JOB, type WebhookScheduler } from './webhook-scheduler.ts'
import type { WebhookSettings } from './webhook-settings.ts'

const SWEEP_EVERY_MS = 3600_000

interface WorkerDeps {
  queue: QueueBackend
  webhookSettings: WebhookSettings
  webhookDispatcher: WebhookDispatcher
  webhookScheduler: WebhookScheduler
  webhookDeliverer: WebhookDeliverer
  webhookDeliveryRepository: WebhookDeliveryRepository
  eventOutbox: EventOutbox
  log: Logger
}

/**
 * The worker side of webhooks: the delivery job handler, and one loop that dispatches new
 * events, sends due attempts and, hourly, drops deliveries past their 30 days.
 */
export class WebhookWorker {
  readonly #deps: WorkerDeps
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #stopped = false
  #sweptAt = 0

  constructor(deps: WorkerDeps) {
    this.#deps = deps
  }

  async start(): Promise<void> {
    const { queue, webhookSettings, webhookDeliverer } = this.#deps
    await queue.work<DeliverJobData>(
      WEBHOOK_DELIVER_JOB,
      { concurrency: webhookSettings.concurrency },
      webhookDeliverer.handle,
    )
    this.#schedule(0)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
  }

  /** One pass: every pending event, the due attempts the queue has room for, the sweep when its hour has come. */
  async runOnce(): Promise<void> {
    const { webhookDispatcher, webhookScheduler } = this.#deps
    // sending between dispatch batches: the first deliveries of a burst go out at once
    while (!this.#stopped) {
      const dispatched = await webhookDispatcher.dispatchPending()
      const sent = await webhookScheduler.sendDue()
      if (dispatched === 0 && sent === 0) break
    }
    await this.#sweep()
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce()
        .catch((err: unknown) => this.#deps.log.error({ err }, 'webhook worker pass failed'))
        .finally(() => this.#schedule(this.#deps.webhookSettings.pollMs))
    }, delayMs)
  }

  async #sweep(): Promise<void> {
    const { webhookSettings, webhookDeliveryRepository, eventOutbox } = this.#deps
    const now = webhookSettings.now()
    // either way: a clock set back (tests, a corrected host clock) must not stop the sweep
    if (Math.abs(now.getTime() - this.#sweptAt) < SWEEP_EVERY_MS) return
    this.#sweptAt = now.getTime()
    const before = new Date(now.getTime() - webhookSettings.retentionMs)
    await webhookDeliveryRepository.deleteOlderThan(before)
    await eventOutbox.pruneDispatched(before)
  }
}
