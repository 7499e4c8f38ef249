// The event outbox's table (migration 0003 in ./migrations), joined to the Database type.

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

declare module '../db/schema.ts' {
  interface Database {
    events: EventTable
  }
}
