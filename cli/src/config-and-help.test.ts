import { describe, expect, it } from 'vitest'
import { runCli } from './cli-test-support.ts'
import { commands } from './commands.ts'

const SECRETS = {
  DOCSVC_OPERATOR_TOKEN: 'op-token-9f8e7d6c5b4a-0123456789abcdef',
  DOCSVC_SECRET_KEY: 'secret-key-0a1b2c3d4e5f',
  DOCSVC_DATABASE_URL: 'postgres://docsvc:db-password-77aa@db.internal:5432/docsvc',
}

describe('config print, help and --json', () => {
  it('config print shows the effective config with secrets masked, as text and JSON', async () => {
    const env = { ...SECRETS, DOCSVC_PORT: '4100', DOCSVC_DATA_DIR: '/tmp/docsvc-config-print' }
    const [json, text, invalid] = await Promise.all([
      runCli(['config', 'print', '--json'], env),
      runCli(['config', 'print'], env),
      runCli(['config', 'print', '--json'], { DOCSVC_PORT: 'lots' }),
    ])
    expect(json.code).toBe(0)
    expect(text.code).toBe(0)
    for (const out of [json.stdout, text.stdout]) {
      expect(out).not.toContain('op-token-9f8e7d6c5b4a-0123456789abcdef')
      expect(out).not.toContain('secret-key-0a1b2c3d4e5f')
      expect(out).not.toContain('db-password-77aa')
    }
    expect(JSON.parse(json.stdout)).toMatchObject({
      port: 4100,
      mode: 'cluster',
      operatorToken: '***',
      secretKey: '***',
      databaseUrl: 'postgres://docsvc:***@db.internal:5432/docsvc',
      dataDir: '/tmp/docsvc-config-print',
    })
    expect(text.stdout).toMatch(/^port: 4100$/m)
    expect(invalid.code).toBe(2)
    expect(JSON.parse(invalid.stdout).error.code).toBe('config_error')
    expect(invalid.stderr).toMatch(/DOCSVC_PORT/)
  })

  it('config print shows the queue, file store, retry schedule and plugin settings, and what auto chose', async () => {
    const chosen = {
      ...SECRETS,
      DOCSVC_QUEUE_BACKEND: 'pgboss',
      DOCSVC_FILE_STORE: 's3',
      DOCSVC_WEBHOOK_RETRY_SCHEDULE: '10s,1m,1h',
      DOCSVC_PLUGIN_QUEUE_PGBOSS_POLL_INTERVAL_MS: '500',
      DOCSVC_PLUGIN_FILESTORE_S3_BUCKET: 'renders',
      DOCSVC_PLUGIN_FILESTORE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      DOCSVC_PLUGIN_FILESTORE_S3_SECRET_ACCESS_KEY: 's3-secret-5e6f7a8b',
    }
    const [json, text, auto, refused] = await Promise.all([
      runCli(['config', 'print', '--json'], chosen),
      runCli(['config', 'print'], chosen),
      runCli(['config', 'print', '--json'], {}),
      runCli(['config', 'print', '--json'], { DOCSVC_QUEUE_BACKEND: 'redis', DOCSVC_FILE_STORE: 's3' }),
    ])
    expect(json.code).toBe(0)
    for (const out of [json.stdout, text.stdout]) expect(out).not.toContain('s3-secret-5e6f7a8b')
    const printed = JSON.parse(json.stdout)
    expect(printed).toMatchObject({
      queueBackend: 'pgboss',
      fileStore: 's3',
      webhookRetrySchedule: ['10s', '1m', '1h'],
      chosen: { queueBackend: 'pgboss', fileStore: 's3' },
    })
    expect(printed.pluginSettings['queue-pgboss']).toEqual({
      schema: '',
      pollIntervalMs: 500,
      retryDelaySeconds: 1,
      superviseIntervalSeconds: 10,
      poolSize: 10,
    })
    expect(printed.pluginSettings['filestore-s3']).toMatchObject({
      bucket: 'renders',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: '***',
    })
    expect(text.stdout).toMatch(/^webhookRetrySchedule: \["10s","1m","1h"\]$/m)
    expect(text.stdout).toMatch(/^chosen: \{"queueBackend":"pgboss","fileStore":"s3"\}$/m)

    // auto, spelt out: SQLite and local disk for an embedded installation
    expect(JSON.parse(auto.stdout)).toMatchObject({
      queueBackend: 'auto',
      fileStore: 'auto',
      webhookRetrySchedule: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
      chosen: { queueBackend: 'sqlite', fileStore: 'local' },
    })

    expect(refused.code).toBe(2)
    expect(JSON.parse(refused.stdout).error.code).toBe('config_error')
    expect(refused.stderr).toContain(
      'DOCSVC_QUEUE_BACKEND: no loaded plugin provides the queue backend "redis"',
    )
    expect(refused.stderr).toContain('DOCSVC_FILE_STORE: the file store "s3" is chosen but its plugin')
  })

  it('every command takes --json', () => {
    for (const [id, command] of Object.entries(commands)) {
      expect(command.enableJsonFlag, id).toBe(true)
    }
  })

  it('help lists the topics and commands', async () => {
    const help = await runCli(['--help'], {})
    expect(help.code).toBe(0)
    for (const name of ['workspace', 'key', 'plan', 'config', 'serve', 'worker', 'migrate']) {
      expect(help.stdout).toContain(name)
    }
  })
})
