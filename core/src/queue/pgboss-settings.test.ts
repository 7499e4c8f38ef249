import { describe, expect, it } from 'vitest'
import { loadConfig } from '../kernel/config.ts'
import { loadPlugins } from '../kernel/plugins/plugin-loader.ts'
import { recordingLogger, testHost } from '../kernel/plugins/plugin-test-fixtures.ts'
import { standardPlugin } from '../testing/standard-plugin.ts'
import { createPgSchema, TEST_DATABASE_URL } from '../testing/test-databases.ts'
import { selectQueue } from './select-queue.ts'

// pg-boss's settings are the queue-pgboss plugin's own section: DOCSVC_PLUGIN_QUEUE_PGBOSS_*.
const boot = (env: NodeJS.ProcessEnv) =>
  loadPlugins({
    host: testHost(),
    builtins: [standardPlugin('queue-pgboss')],
    packages: [],
    env,
    log: recordingLogger(),
  })

describe('DOCSVC_PLUGIN_QUEUE_PGBOSS_*', () => {
  it('default to what the queue did before: poll 1 s, retry after 1 s, supervise every 10 s, 10 connections', async () => {
    const set = await boot({})
    expect(set.plugins[0]?.config).toEqual({
      schema: '',
      pollIntervalMs: 1000,
      retryDelaySeconds: 1,
      superviseIntervalSeconds: 10,
      poolSize: 10,
    })
  })

  it('puts the queue in the schema the operator names', async () => {
    const pg = await createPgSchema()
    const env = { DOCSVC_DATABASE_URL: TEST_DATABASE_URL, DOCSVC_PLUGIN_QUEUE_PGBOSS_SCHEMA: pg.schema }
    const queue = selectQueue((await boot(env)).registries, loadConfig(env))
    try {
      expect(await queue.healthcheck()).toMatchObject({
        ok: true,
        detail: expect.stringMatching(`^schema ${pg.schema},`),
      })
    } finally {
      await queue.stop(1_000)
      await pg.drop()
    }
  })

  it('refuses bad values at start, naming each env var', async () => {
    const err = await boot({
      DOCSVC_PLUGIN_QUEUE_PGBOSS_POLL_INTERVAL_MS: '5',
      DOCSVC_PLUGIN_QUEUE_PGBOSS_SUPERVISE_INTERVAL_SECONDS: '0',
      DOCSVC_PLUGIN_QUEUE_PGBOSS_SCHEMA: 'queue; drop table x',
    }).catch((e: Error) => e)
    const message = (err as Error).message
    expect(message).toContain(
      'plugin queue-pgboss: DOCSVC_PLUGIN_QUEUE_PGBOSS_POLL_INTERVAL_MS: must be >= 100 (got "5")',
    )
    expect(message).toContain(
      'plugin queue-pgboss: DOCSVC_PLUGIN_QUEUE_PGBOSS_SUPERVISE_INTERVAL_SECONDS: must be >= 1 (got "0")',
    )
    expect(message).toContain('plugin queue-pgboss: DOCSVC_PLUGIN_QUEUE_PGBOSS_SCHEMA: must match pattern')
  })
})
