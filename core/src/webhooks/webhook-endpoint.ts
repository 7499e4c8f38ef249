import type { Selectable } from 'kysely'
import { fromJson } from '../db/json-columns.ts'
import type { WebhookEndpointTable } from './webhook-tables.ts'

/** A webhook endpoint (SPEC 2.12) as the service works with it; secrets stay sealed. */
export interface WebhookEndpoint {
  id: string
  workspace_id: string
  test: boolean
  url: string
  description: string | null
  events: string[]
  template_ids: string[] | null
  headers: Record<string, string>
  is_default: boolean
  enabled: boolean
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: string | null
  failing_since: string | null
  disabled_reason: string | null
  disabled_at: string | null
  created_at: string
  updated_at: string
}

export function endpointFromRow(row: Selectable<WebhookEndpointTable>): WebhookEndpoint {
  return {
    ...row,
    test: row.test === 1,
    events: fromJson<string[]>(row.events, []),
    template_ids: fromJson<string[] | null>(row.template_ids, null),
    headers: fromJson<Record<string, string>>(row.headers, {}),
    is_default: row.is_default === 1,
    enabled: row.enabled === 1,
  }
}

/** The endpoint as clients read it: never a secret (SPEC 2.2). */
export function endpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    template_ids: endpoint.template_ids,
    headers: endpoint.headers,
    is_default: endpoint.is_default,
    enabled: endpoint.enabled,
    test: endpoint.test,
    disabled_reason: endpoint.disabled_reason,
    disabled_at: endpoint.disabled_at,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  }
}
