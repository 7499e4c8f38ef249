import { readFileSync } from 'node:fs'
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createPgSchema, TEST_DATABASE_URL, TEST_DIALECTS } from '../testing/test-databases.ts'
import { type Db, openDatabase } from './database.ts'
import { listedMigrations } from './migrate.ts'
import { dumpSchema } from './schema-dump-test-support.ts'

// What `0001-platform` created when it was one file in core/src/db (captured from that code on
// both dialects). Its parts now live in the features that own the tables; an installation that
// runs it today must get the same tables, columns, keys and indexes, in the same DDL.
const RECORDED: Record<string, string[]> = JSON.parse(
  readFileSync(new URL('./0001-platform-schema.json', import.meta.url), 'utf8'),
)

async function freshDatabase(dialect: string): Promise<{ db: Db; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ databaseUrl: '', sqlitePath: ':memory:' })
    return { db, drop: () => db.close() }
  }
  const pg = await createPgSchema()
  const db = openDatabase({ databaseUrl: TEST_DATABASE_URL, sqlitePath: '', pgSchema: pg.schema })
  return {
    db,
    async drop() {
      await db.close()
      await pg.drop()
    },
  }
}

describe.each(TEST_DIALECTS)('0001-platform on %s', (dialect) => {
  it('creates the schema it created before its tables moved into their features', async () => {
    const { db, drop } = await freshDatabase(dialect)
    try {
      await listedMigrations()['0001-platform']!.up(db.kysely as unknown as Kysely<unknown>)
      const schema = await dumpSchema(db)
      expect(schema.length).toBeGreaterThan(0)
      expect(schema).toEqual(RECORDED[dialect])
    } finally {
      await drop()
    }
  })
})
