// The idempotency store's table (its part of migration 0001-platform in ./migrations), joined to
// the Database type. Other features reach it through the idempotency hooks, never here.

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

declare module '../db/schema.ts' {
  interface Database {
    idempotency_keys: IdempotencyKeyTable
  }
}
