import type { Database as SqliteDatabase, Statement } from 'better-sqlite3'
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely'

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running most of
 * ours. The service sends the same few hundred SQL texts over and over, so prepared statements
 * are kept by text (the least recently used go first). Kysely runs one query at a time on the
 * connection and never streams here, so a statement is never in use twice.
 */
export function withStatementCache(database: SqliteDatabase, max = 512): KyselySqliteDatabase {
  const statements = new Map<string, Statement>()
  return {
    close: () => {
      statements.clear()
      database.close()
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql)
      if (statement) {
        // re-inserted: the Map's order is the recency order
        statements.delete(sql)
      } else {
        statement = database.prepare(sql)
        if (statements.size >= max) statements.delete(statements.keys().next().value as string)
      }
      statements.set(sql, statement)
      return statement as ReturnType<KyselySqliteDatabase['prepare']>
    },
  }
}
