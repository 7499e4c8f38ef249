import { createPgSchema, TEST_DATABASE_URL } from '@docsvc/core/testing'
import pg from 'pg'
import { expect, it } from 'vitest'
import { servedTableSql } from './pgboss-fair-claim.ts'

it('makes its table when every process of a cluster starts at the same moment', async () => {
  // without turns, 7 of 8 makers failed on the catalogue's unique type name (23505)
  const { schema, drop } = await createPgSchema()
  const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: TEST_DATABASE_URL }))
  try {
    await Promise.all(clients.map((c) => c.connect()))
    const made = await Promise.allSettled(clients.map((c) => c.query(servedTableSql(schema))))
    expect(made.filter((m) => m.status === 'rejected')).toEqual([])
  } finally {
    await Promise.all(clients.map((c) => c.end()))
    await drop()
  }
})
