import type { Generated } from 'kysely'

// Column conventions shared by both dialects: timestamps are ISO 8601 UTC text, booleans are
// 0/1 integers, JSON is text. One repository code path then serves SQLite and PostgreSQL.
//
// The platform tables of migration 0001 are typed here; every other feature declares its own
// tables in `<feature>/<feature>-tables.ts`, which joins them to `Database` below.

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

export interface MigrationMarker {
  id: Generated<number>
}

/** Every table; features add theirs by declaration merging (`declare module '../db/schema.ts'`). */
export interface Database {
  plans: PlanTable
  workspaces: WorkspaceTable
  api_keys: ApiKeyTable
  api_key_usage: ApiKeyUsageTable
  idempotency_keys: IdempotencyKeyTable
  rate_limit_counters: RateLimitCounterTable
}
