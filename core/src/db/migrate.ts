import { sql } from 'kysely'
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'
import type { Db } from './database.ts'
import * as m0001 from './migrations/0001-platform.ts'
import * as m0002 from './migrations/0002-renders.ts'
import * as m0003 from './migrations/0003-events.ts'
import * as m0004 from './migrations/0004-templates.ts'
import * as m0005 from './migrations/0005-uploads.ts'
import * as m0006 from './migrations/0006-webhooks.ts'
import * as m0007 from './migrations/0007-renders-at-rest.ts'
import * as m0008 from './migrations/0008-renders-in-flight.ts'

// Versioned migrations, listed explicitly (no folder scanning) so the bundle knows them all.
const MIGRATIONS: Record<string, Migration> = {
  '0001-platform': m0001,
  '0002-renders': m0002,
  '0003-events': m0003,
  '0004-templates': m0004,
  '0005-uploads': m0005,
  '0006-webhooks': m0006,
  '0007-renders-at-rest': m0007,
  '0008-renders-in-flight': m0008,
}

class ListedMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS
  }
}

export interface MigrateResult {
  applied: string[]
}

/**
 * Brings the schema up to date; safe to run from several processes at once. PostgreSQL uses
 * Kysely's lock table. SQLite has no such lock across processes, but its DDL is transactional:
 * a process that loses the race rolls back whole and, retried, finds the work done.
 */
export async function migrateToLatest(db: Db): Promise<MigrateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db)
    } catch (err) {
      const raced =
        db.dialect === 'sqlite' && /already exists|SQLITE_BUSY|database is locked/i.test(String(err))
      if (!raced || attempt >= 10) throw err
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
    }
  }
}

async function migrateOnce(db: Db): Promise<MigrateResult> {
  const schema = db.dialect === 'postgres' ? await currentSchema(db) : undefined
  const migrator = new Migrator({
    db: db.kysely,
    provider: new ListedMigrations(),
    migrationTableName: 'docsvc_migrations',
    migrationLockTableName: 'docsvc_migrations_lock',
    // Kysely looks for its tables in every schema unless told which one is ours
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`migration ${failed} failed: ${(error as Error).message ?? String(error)}`)
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) }
}

async function currentSchema(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely)
  return rows[0]?.schema ?? undefined
}
