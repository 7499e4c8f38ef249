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

  it('refuses a name two owners claim', () => {
    const up = async () => {}
    expect(() => listedMigrations({ uploads: { '0001-platform': { up } } })).toThrow(
      'migration 0001-platform of uploads is listed twice',
    )
  })
})
