import { type Kysely, PostgresAdapter } from 'kysely'

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** Column type for raw bytes: `bytea` on PostgreSQL, `blob` on SQLite (both read back as Buffer). */
export function binaryType(db: Kysely<unknown>): string {
  return isPostgres(db) ? 'bytea' : 'blob'
}
