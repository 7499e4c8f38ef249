import { type Kysely, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './database.ts'
import { listedMigrations, migrateToLatest } from './migrate.ts'

// The names installations recorded in docsvc_migrations. A migration's file may move into its
// feature's folder; its name may not change, or an existing database would run it again.
const RECORDED_NAMES = [
  '0001-platform',
  '0002-renders',
  '0003-events',
  '0004-templates',
  '0005-uploads',
  '0006-webhooks',
  '0007-renders-at-rest',
  '0008-renders-in-flight',
  '0009-billing',
  '0010-members',
  '0011-workspace-email-check',
  '0012-billing-reservations',
  '0013-storage-destinations',
  '0014-ended-ownerships',
]

describe('migrations kept by their features', () => {
  it('lists every migration under the name installations recorded', () => {
    expect(Object.keys(listedMigrations()).sort()).toEqual(RECORDED_NAMES)
  })

  it('applies them in name order once, and nothing on the next start', async () => {
    const db = openDatabase({ databaseUrl: '', sqlitePath: ':memory:' })
    try {
      expect((await migrateToLatest(db)).applied).toEqual(RECORDED_NAMES)
      expect((await migrateToLatest(db)).applied).toEqual([])
    } finally {
      await db.close()
    }
  })

  it('0011 keeps workspaces made before members rendering live (exempt); new ones are not', async () => {
    const db = openDatabase({ databaseUrl: '', sqlitePath: ':memory:' })
    try {
      const all = listedMigrations()
      const raw = db.kysely as unknown as Kysely<unknown>
      for (const name of RECORDED_NAMES.filter((n) => n < '0011')) await all[name]!.up(raw)
      const at = new Date().toISOString()
      await sql`insert into plans values ('free', 'Free', 0, '{}', '{}', ${at})`.execute(db.kysely)
      // a workspace row as the code before members wrote it: email_verified left at its default
      await sql`insert into workspaces (id, name, plan_id, status, settings, regions, created_at, updated_at)
        values ('ws_old', 'Old', 'free', 'active', '{}', '["eu"]', ${at}, ${at})`.execute(db.kysely)
      await all['0011-workspace-email-check']!.up(raw)
      const row = await db.kysely
        .selectFrom('workspaces')
        .select('email_check_waived')
        .where('id', '=', 'ws_old')
        .executeTakeFirstOrThrow()
      expect(row.email_check_waived).toBe(1)
    } finally {
      await db.close()
    }
  })

  it('refuses a name two owners claim', () => {
    const up = async () => {}
    expect(() => listedMigrations({ uploads: { '0001-platform': { up } } })).toThrow(
      'migration 0001-platform of uploads is listed twice',
    )
  })
})
