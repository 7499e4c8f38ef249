import type { Generated } from 'kysely'

// Column conventions shared by both dialects: timestamps are ISO 8601 UTC text, booleans are
// 0/1 integers, JSON is text. One repository code path then serves SQLite and PostgreSQL.

export interface PlanTable {
  id: string
  name: string
  position: number
  features: string
  limits: string
  updated_at: string
}

export interface WorkspaceTable {
  id: string
  name: string
  plan_id: string
  status: 'active' | 'suspended' | 'deletion_scheduled'
  ip_allowlist: string | null
  email_verified: number
  settings: string
  regions: string
  created_at: string
  updated_at: string
}

export interface ApiKeyTable {
  id: string
  workspace_id: string
  name: string
  mode: 'test' | 'live'
  secret_hash: string
  last4: string
  scopes: string
  ip_allowlist: string | null
  template_allowlist: string | null
  expires_at: string | null
  revoked_at: string | null
  rolled_to: string | null
  grace_until: string | null
  created_at: string
  last_used_at: string | null
  last_ip: string | null
}

export interface ApiKeyUsageTable {
  key_id: string
  hour: string
  count: number
}

export interface IdempotencyKeyTable {
  workspace_id: string
  key: string
  fingerprint: string
  state: 'in_progress' | 'done'
  status_code: number | null
  headers: string | null
  body: Buffer | null
  /** JSON: what a replay rebuilds its body from (a render's files), instead of stored bytes */
  replay: string | null
  created_at: string
  expires_at: string
}

export interface RateLimitCounterTable {
  bucket: string
  count: number
  expires_at: string
}

export interface RenderTable {
  id: string
  workspace_id: string
  test: number
  status: 'queued' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'expired'
  input_type: string
  kind: string
  source: string
  output_format: string
  reference: string | null
  metadata: string | null
  template_id: string | null
  batch_id: string | null
  key_id: string
  mode: 'sync' | 'async'
  priority: 'normal' | 'low'
  request: string
  result: string | null
  warnings: string
  error: string | null
  retention_days: number
  job_id: string | null
  attempts: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  files_expire_at: string | null
  updated_at: string
  /** the request's credentials, sealed with the installation key; null once the render ended */
  secrets: string | null
}

export interface RenderFileTable {
  id: string
  render_id: string
  workspace_id: string
  position: number
  format: string
  content_type: string
  size: number
  pages: number | null
  width: number | null
  height: number | null
  filename: string
  storage_key: string
  created_at: string
  deleted_at: string | null
}

export interface RenderLogTable {
  render_id: string
  seq: number
  at: string
  message: string
}

export interface BilledRenderTable {
  render_id: string
  workspace_id: string
  kind: string
  billed_at: string
}

export interface EventTable {
  id: string
  workspace_id: string
  type: string
  test: number
  created_at: string
  /** the envelope's `data`, as JSON */
  data: string
  dispatched_at: string | null
}

export interface MigrationMarker {
  id: Generated<number>
}

export interface Database {
  plans: PlanTable
  workspaces: WorkspaceTable
  api_keys: ApiKeyTable
  api_key_usage: ApiKeyUsageTable
  idempotency_keys: IdempotencyKeyTable
  rate_limit_counters: RateLimitCounterTable
  renders: RenderTable
  render_files: RenderFileTable
  render_logs: RenderLogTable
  billed_renders: BilledRenderTable
  events: EventTable
}
