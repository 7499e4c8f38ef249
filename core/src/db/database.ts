import { mkdirSync } from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.ts'
import { withStatementCache } from './sqlite-statement-cache.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  close(): Promise<void>
  ping(): Promise<void>
}

export interface DbOptions {
  /** postgres://... for cluster mode; empty for SQLite */
  databaseUrl: string
  sqlitePath: string
  /** PostgreSQL schema to use (tests isolate themselves in one); default `public` */
  pgSchema?: string
  pgPoolSize?: number
}

export function openDatabase(options: DbOptions): Db {
  if (options.databaseUrl) return openPostgres(options)
  return openSqlite(options.sqlitePath)
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('busy_timeout = 5000')
  database.pragma('foreign_keys = ON')
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  })
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    ping: async () => {
      database.prepare('select 1').get()
    },
  }
}

function openPostgres(options: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.pgPoolSize ?? 10,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  })
  // an idle client losing its connection must not crash the process
  pool.on('error', () => {})
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    kysely,
    dialect: 'postgres',
    close: () => kysely.destroy(),
    ping: async () => {
      await pool.query('select 1')
    },
  }
}
