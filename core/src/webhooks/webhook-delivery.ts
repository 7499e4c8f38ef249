import type { Selectable } from 'kysely'
import { fromJson } from '../db/json-columns.ts'
import type { WebhookDeliveryAttemptTable, WebhookDeliveryTable } from './webhook-tables.ts'

/** SPEC 2.13 */
export const DELIVERY_STATUSES = ['exhausted', 'failed', 'pending', 'succeeded'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export type WebhookDelivery = Omit<Selectable<WebhookDeliveryTable>, 'test' | 'manual' | 'status'> & {
  test: boolean
  manual: boolean
  status: DeliveryStatus
}

export function deliveryFromRow(row: Selectable<WebhookDeliveryTable>): WebhookDelivery {
  return { ...row, test: row.test === 1, manual: row.manual === 1, status: row.status as DeliveryStatus }
}

/** A delivery as listed: the last attempt's response, no payload. */
export function deliverySummaryView(d: WebhookDelivery) {
  return {
    id: d.id,
    object: 'webhook_delivery' as const,
    endpoint_id: d.endpoint_id,
    url: d.url,
    event_id: d.event_id,
    event_type: d.event_type,
    render_id: d.render_id,
    test: d.test,
    status: d.status,
    attempt: d.attempt,
    replay_of: d.replay_of,
    next_attempt_at: d.next_attempt_at,
    response:
      d.last_attempt_at === null
        ? null
        : {
            status: d.response_status,
            body_excerpt: d.response_body,
            latency_ms: d.latency_ms,
            error: d.error,
            attempted_at: d.last_attempt_at,
          },
    created_at: d.created_at,
    updated_at: d.updated_at,
  }
}

/** One delivery with the request it sent (payload and signed headers) and every attempt. */
export function deliveryDetailView(d: WebhookDelivery, attempts: Selectable<WebhookDeliveryAttemptTable>[]) {
  const last = attempts.at(-1)
  return {
    ...deliverySummaryView(d),
    request: {
      url: last?.url ?? d.url,
      headers: last ? fromJson<Record<string, string>>(last.request_headers, {}) : null,
      body: fromJson<Record<string, unknown>>(d.payload, {}),
    },
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      url: a.url,
      sent_at: a.sent_at,
      response_status: a.response_status,
      response_body_excerpt: a.response_body,
      latency_ms: a.latency_ms,
      error: a.error,
    })),
  }
}
