// The webhook tables of migration 0006, joined to the Database type (ISO-8601 text times, 0/1
// flags, JSON as text).

export interface WebhookEndpointTable {
  id: string
  workspace_id: string
  /** created with a test key: receives test events only, may use http */
  test: number
  url: string
  description: string | null
  /** JSON array of event types */
  events: string
  /** JSON array of template ids, or null for every template */
  template_ids: string | null
  /** JSON object of extra request headers */
  headers: string
  is_default: number
  enabled: number
  /** sealed with the installation's secret key */
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: string | null
  /** first failed attempt of an unbroken run of failures */
  failing_since: string | null
  /** 'failing' when the service switched the endpoint off */
  disabled_reason: string | null
  disabled_at: string | null
  created_at: string
  updated_at: string
}

export interface WebhookDeliveryTable {
  id: string
  workspace_id: string
  test: number
  /** null for a render's own inline `webhook` */
  endpoint_id: string | null
  /** the inline webhook's URL; endpoint deliveries go to the endpoint's current URL */
  url: string | null
  event_id: string
  event_type: string
  render_id: string | null
  /** the envelope exactly as sent */
  payload: string
  status: string
  /** attempts made so far */
  attempt: number
  /** sent on request (test event, replay): goes out even to a disabled endpoint */
  manual: number
  replay_of: string | null
  /** when the next attempt is due (shown to clients); null once settled */
  next_attempt_at: string | null
  /**
   * when the scheduler looks at the delivery next: the attempt's time, or, while a queue job
   * carries it, the end of that job's lease; null once settled
   */
  due_at: string | null
  last_attempt_at: string | null
  response_status: number | null
  response_body: string | null
  latency_ms: number | null
  error: string | null
  created_at: string
  updated_at: string
}

export interface WebhookDeliveryAttemptTable {
  delivery_id: string
  attempt: number
  url: string
  sent_at: string
  /** JSON object, signatures included */
  request_headers: string
  response_status: number | null
  response_body: string | null
  latency_ms: number
  error: string | null
}

declare module '../db/schema.ts' {
  interface Database {
    webhook_endpoints: WebhookEndpointTable
    webhook_deliveries: WebhookDeliveryTable
    webhook_delivery_attempts: WebhookDeliveryAttemptTable
  }
}
