import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../kernel/config.ts'
import { loadTestPlugins } from '../testing/load-test-plugins.ts'
import { standardPlugin } from '../testing/standard-plugin.ts'
import { createPgSchema, TEST_DATABASE_URL } from '../testing/test-databases.ts'
import { searchPathSchema, selectQueue } from './select-queue.ts'

function urlIn(schema: string): string {
  const url = new URL(TEST_DATABASE_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

describe('the queue of an installation confined to a schema', () => {
  it('reads the schema from the first entry of the URL search_path', () => {
    expect(searchPathSchema('postgres://h/db?options=-c%20search_path%3Dacme')).toBe('acme')
    expect(searchPathSchema('postgres://h/db?options=-c search_path=acme,public')).toBe('acme')
    expect(searchPathSchema('postgres://h/db?options=-csearch_path=acme')).toBe('acme')
    expect(searchPathSchema('postgres://h/db?sslmode=require')).toBeUndefined()
    // not a plain identifier: nothing is derived from it
    expect(searchPathSchema('postgres://h/db?options=-c search_path="a b"')).toBeUndefined()
    expect(searchPathSchema('')).toBeUndefined()
  })

  it('keeps its pg-boss tables beside it, so two installations in one database never take each other’s jobs', async () => {
    // the pg-boss plugin with its default settings (no schema of its own), as the loader wires it
    const { registries } = await loadTestPlugins({ plugins: [standardPlugin('queue-pgboss')] })
    const [a, b] = [await createPgSchema(), await createPgSchema()]
    const queueOf = (schema: string) =>
      selectQueue(registries, loadConfig({ DOCSVC_DATABASE_URL: urlIn(schema) }))
    const [queueA, queueB] = [queueOf(a.schema), queueOf(b.schema)]
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    try {
      const seenByB: string[] = []
      // the other installation's worker is already looking for render jobs
      await queueB.work('render', { concurrency: 1 }, async (job) => {
        seenByB.push(job.id)
      })
      const id = await queueA.send(
        'render',
        { renderId: 'ren_a' },
        {
          priority: 'normal',
          timeoutSeconds: 30,
          maxAttempts: 1,
        },
      )
      const { rows } = await client.query<{ name: string }>(
        'select schema_name as name from information_schema.schemata where schema_name = $1',
        [`${a.schema}_queue`],
      )
      expect(rows.map((r) => r.name)).toEqual([`${a.schema}_queue`])
      const taken = await new Promise<string>((resolve) => {
        void queueA.work('render', { concurrency: 1 }, async (job) => resolve(job.id))
      })
      expect(taken).toBe(id)
      expect(seenByB).toEqual([])
    } finally {
      await client.end()
      await Promise.allSettled([queueA.stop(1_000), queueB.stop(1_000)])
      await Promise.allSettled([a.drop(), b.drop()])
    }
  })
})
