import { existsSync, statSync } from 'node:fs'
import { sql } from 'kysely'
import { type Config, maskDatabaseUrl } from '../kernel/config.ts'
import { openDatabase } from './database.ts'

/** The database a config opens, as a person finds it: the SQLite file, or the URL without its password. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'sqlitePath'>): string {
  return config.databaseUrl
    ? `PostgreSQL database ${maskDatabaseUrl(config.databaseUrl)}`
    : `SQLite database ${config.sqlitePath}`
}

/**
 * Whether docsvc's database is there, without making it: the SQLite file exists (opening it would
 * create it), or the PostgreSQL schema in the URL's search path has docsvc's migration table.
 * Admin commands check this so that a wrong data dir is an error, not a new empty database.
 */
export async function databaseExists(config: Pick<Config, 'databaseUrl' | 'sqlitePath'>): Promise<boolean> {
  if (!config.databaseUrl) return existsSync(config.sqlitePath) && statSync(config.sqlitePath).size > 0
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath, pgPoolSize: 1 })
  try {
    const { rows } = await sql<{
      found: string | null
    }>`select to_regclass('docsvc_migrations')::text as found`.execute(db.kysely)
    return rows[0]?.found != null
  } finally {
    await db.close()
  }
}
