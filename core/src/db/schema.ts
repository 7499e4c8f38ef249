import type { Generated } from 'kysely'

// Column conventions shared by both dialects: timestamps are ISO 8601 UTC text, booleans are
// 0/1 integers, JSON is text. One repository code path then serves SQLite and PostgreSQL.

export interface MigrationMarker {
  id: Generated<number>
}

/**
 * Every table. Each feature declares its own in `<feature>/<feature>-tables.ts` and joins them
 * here by declaration merging (`declare module '../db/schema.ts'`); core/src/db names none.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' declaration merging
export interface Database {}
