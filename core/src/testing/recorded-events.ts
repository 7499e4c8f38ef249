import type { Kernel } from '../composition/create-kernel.ts'

export interface RecordedEvent {
  id: string
  type: string
  workspace_id: string
  /** present, and true, only on test events (as in the envelope) */
  test?: true
  data: Record<string, unknown>
}

/**
 * Every event the outbox holds, dispatched or not: a worker's webhook dispatcher may hand events
 * on (and mark them) before a test looks, so tests must not read only the pending ones.
 */
export async function recordedEvents(kernel: Kernel): Promise<RecordedEvent[]> {
  const rows = await kernel.db.kysely.selectFrom('events').selectAll().orderBy('id').execute()
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    workspace_id: row.workspace_id,
    ...(row.test === 1 ? { test: true as const } : {}),
    data: JSON.parse(row.data) as Record<string, unknown>,
  }))
}
