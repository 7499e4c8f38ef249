import { randomBytes } from 'node:crypto'
import pg from 'pg'

export type TestDialect = 'sqlite' | 'postgres'

/** Both dialects, always: every repository and HTTP suite runs on SQLite and PostgreSQL. */
export const TEST_DIALECTS: TestDialect[] = ['sqlite', 'postgres']

export const TEST_DATABASE_URL =
  process.env.DOCSVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const STALE_AFTER_MS = 2 * 3600 * 1000
let sweptStale = false

/** Schemas of killed test runs (t_<base36 time>_...) older than two hours are dropped once per process. */
async function dropStaleSchemas(client: pg.Client): Promise<void> {
  if (sweptStale) return
  sweptStale = true
  const { rows } = await client.query<{ name: string }>(
    "select nspname as name from pg_namespace where nspname like 't\\_%'",
  )
  for (const { name } of rows) {
    const created = Number.parseInt(name.split('_')[1] ?? '', 36)
    if (Number.isFinite(created) && Date.now() - created > STALE_AFTER_MS) {
      await client.query(`drop schema if exists ${name} cascade`).catch(() => {})
    }
  }
}

/** A fresh schema per test kernel keeps parallel test files out of each other's rows. */
export async function createPgSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    await dropStaleSchemas(client)
    await client.query(`create schema ${schema}`)
  } finally {
    await client.end()
  }
  return {
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await c.connect()
      try {
        // the queue keeps its tables in a sibling schema
        await c.query(`drop schema if exists ${schema} cascade`)
        await c.query(`drop schema if exists ${schema}_queue cascade`)
      } finally {
        await c.end()
      }
    },
  }
}
