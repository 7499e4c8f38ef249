// The event types of SPEC 6.1. `api_key.expiring` is listed there as planned and is never sent.
export const EVENT_TYPES = [
  'render.succeeded',
  'render.failed',
  'render.expired',
  'template.published',
  'usage.threshold_reached',
  'batch.progress',
  'batch.completed',
  'storage.upload_failed',
  'email.sent',
  'email.send_failed',
  'email.delivered',
  'email.bounced',
  'email.complained',
  'api_key.expiring',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

/** The types an endpoint can subscribe to and receive: all but the planned `api_key.expiring`. */
export const DELIVERED_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== 'api_key.expiring')

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value)
}

/** The envelope of SPEC 2.14, as webhooks deliver it. */
export interface EventEnvelope<D extends Record<string, unknown> = Record<string, unknown>> {
  id: string
  type: EventType
  /** ISO 8601 UTC */
  created_at: string
  workspace_id: string
  region: string
  data: D
  /** present, and true, only on test events */
  test?: true
}
