import type { Config } from '../kernel/config.ts'
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../kernel/config.ts'
import { parseDurations } from '../kernel/durations.ts'

/**
 * How deliveries behave (SPEC 6.4, Part 8). One mutable object in the container: tests replace
 * the clock, the jitter source and the timeout instead of waiting real minutes.
 */
export interface WebhookSettings {
  /** any 2xx within this time is a success (SPEC: 10 seconds) */
  timeoutMs: number
  /** wait before attempts 2, 3, ... (SPEC 6.4: 2..8); its length + 1 is the number of attempts */
  retryDelaysMs: number[]
  /** each delay varies by up to this share, either way */
  jitter: number
  /** an endpoint failing without a break for this long is switched off */
  disableAfterMs: number
  /** deliveries and their attempts are kept this long */
  retentionMs: number
  /** a delivery whose queued job has not started by then is sent again (a lost job) */
  requeueAfterMs: number
  /** deliveries waiting on the queue at most (all workers together); more wait in the table */
  maxQueued: number
  /** how often the worker looks for new events and due attempts */
  pollMs: number
  /** deliveries one worker process sends at once */
  concurrency: number
  /** bytes of a response body kept in the delivery log */
  responseExcerptBytes: number
  now(): Date
  /** uniform in [0, 1) */
  random(): number
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export function defaultWebhookSettings(): WebhookSettings {
  return {
    timeoutMs: 10 * SECOND,
    retryDelaysMs: parseDurations(DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    jitter: 0.1,
    disableAfterMs: 5 * DAY,
    retentionMs: 30 * DAY,
    requeueAfterMs: 10 * MINUTE,
    maxQueued: 256,
    pollMs: 250,
    concurrency: 16,
    responseExcerptBytes: 2048,
    now: () => new Date(),
    random: Math.random,
  }
}

/** The settings of an installation: the defaults, with the retry schedule it configured. */
export function webhookSettingsFor(config: Pick<Config, 'webhookRetrySchedule'>): WebhookSettings {
  return { ...defaultWebhookSettings(), retryDelaysMs: parseDurations(config.webhookRetrySchedule) }
}

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `failedAt`; null when none is left. */
export function nextAttemptAt(settings: WebhookSettings, attempt: number, failedAt: Date): Date | null {
  const base = settings.retryDelaysMs[attempt - 1]
  if (base === undefined) return null
  const factor = 1 + settings.jitter * (2 * settings.random() - 1)
  return new Date(failedAt.getTime() + Math.round(base * factor))
}

export function maxAttempts(settings: WebhookSettings): number {
  return settings.retryDelaysMs.length + 1
}
