import { sql } from 'kysely'
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'
import type { Db } from './database.ts'
import { FEATURE_MIGRATIONS } from './feature-migrations.ts'
import * as m0001 from './migrations/0001-platform.ts'

// `0001-platform` is listed by core, not by a feature: under its one recorded name it runs the
// parts of five features (plans, workspaces, API keys, idempotency, rate limits), each kept in its
// owner's folder. The others are the features' own (feature-migrations.ts).
const CORE_MIGRATIONS: Record<string, Migration> = { '0001-platform': m0001 }

/**
 * Every migration by name, core's and the features'. Kysely runs them in name order; a name two
 * owners claim is refused, since one would silently hide the other.
 */
export function listedMigrations(
  features: Readonly<Record<string, Readonly<Record<string, Migration>>>> = FEATURE_MIGRATIONS,
): Record<string, Migration> {
  const all: Record<string, Migration> = { ...CORE_MIGRATIONS }
  for (const [feature, migrations] of Object.entries(features)) {
    for (const [name, migration] of Object.entries(migrations)) {
      if (name in all) throw new Error(`migration ${name} of ${feature} is listed twice`)
      all[name] = migration
    }
  }
  return all
}

const MIGRATIONS = listedMigrations()

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
