import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'
import type { Db } from './database.ts'
import * as m0001 from './migrations/0001-platform.ts'

// Versioned migrations, listed explicitly (no folder scanning) so the bundle knows them all.
const MIGRATIONS: Record<string, Migration> = {
  '0001-platform': m0001,
}

class ListedMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS
  }
}

export interface MigrateResult {
  applied: string[]
}

/** Brings the schema up to date; safe to run from several processes at once (Kysely's lock). */
export async function migrateToLatest(db: Db): Promise<MigrateResult> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: new ListedMigrations(),
    migrationTableName: 'docsvc_migrations',
    migrationLockTableName: 'docsvc_migrations_lock',
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`migration ${failed} failed: ${(error as Error).message ?? String(error)}`)
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) }
}
