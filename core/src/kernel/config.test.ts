import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig, maskDatabaseUrl, printableConfig } from './config.ts'
import { ConfigError } from './config-loader.ts'

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

describe('loadConfig defaults', () => {
  const config = loadConfig({})

  it('listens on port 3000 of every interface', () => {
    expect(config.port).toBe(3000)
    expect(config.host).toBe('0.0.0.0')
  })

  it('runs embedded on SQLite under ./data, resolved to an absolute path', () => {
    expect(config.mode).toBe('embedded')
    expect(config.databaseUrl).toBe('')
    expect(config.dataDir).toBe(path.resolve('data'))
    expect(config.sqlitePath).toBe(path.join(path.resolve('data'), 'docsvc.sqlite'))
  })

  it('derives the public and docs URLs from the port', () => {
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.docsUrl).toBe('http://localhost:3000/docs')
  })

  it('has the remaining defaults of the schema', () => {
    expect(config).toMatchObject({
      networkAllow: [],
      trustedProxies: [],
      chromiumPath: '/usr/bin/chromium',
      operatorToken: '',
      secretKey: '',
      region: 'eu',
      logLevel: 'info',
      plugins: [],
      pluginPaths: [],
      autoMigrate: true,
      firstRun: true,
    })
  })
})

describe('loadConfig from env', () => {
  it('reads every fixed DOCSVC_* name', () => {
    const config = loadConfig({
      DOCSVC_PORT: '8080',
      DOCSVC_HOST: '127.0.0.1',
      DOCSVC_DATA_DIR: '/var/lib/docsvc',
      DOCSVC_DATABASE_URL: 'postgres://docsvc:pw@db:5432/docsvc',
      DOCSVC_PUBLIC_URL: 'https://docs.example.com/',
      DOCSVC_NETWORK_ALLOW: '10.0.0.0/8, fd00::/8,192.168.1.5',
      DOCSVC_CHROMIUM_PATH: '/opt/chromium/chrome',
      DOCSVC_TRUSTED_PROXIES: '172.16.0.0/12',
      DOCSVC_OPERATOR_TOKEN: 'op-token-0123456789abcdef0123456789',
      DOCSVC_SECRET_KEY: 'secret',
      DOCSVC_REGION: 'eu-west',
      DOCSVC_LOG_LEVEL: 'debug',
      DOCSVC_PLUGINS: 'docsvc-plugin-hello,docsvc-plugin-x',
      DOCSVC_PLUGIN_PATHS: '/srv/plugins',
      DOCSVC_AUTO_MIGRATE: 'false',
      DOCSVC_FIRST_RUN: 'no',
      DOCSVC_BODY_LIMIT_BYTES: '2048',
      DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '5',
      DOCSVC_KEY_USAGE_FLUSH_MS: '100',
    })
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/docsvc',
      sqlitePath: '/var/lib/docsvc/docsvc.sqlite',
      databaseUrl: 'postgres://docsvc:pw@db:5432/docsvc',
      publicUrl: 'https://docs.example.com',
      docsUrl: 'https://docs.example.com/docs',
      networkAllow: ['10.0.0.0/8', 'fd00::/8', '192.168.1.5'],
      chromiumPath: '/opt/chromium/chrome',
      trustedProxies: ['172.16.0.0/12'],
      operatorToken: 'op-token-0123456789abcdef0123456789',
      secretKey: 'secret',
      region: 'eu-west',
      logLevel: 'debug',
      plugins: ['docsvc-plugin-hello', 'docsvc-plugin-x'],
      pluginPaths: ['/srv/plugins'],
      autoMigrate: false,
      firstRun: false,
      bodyLimitBytes: 2048,
      anonymousRequestsPerSecond: 5,
      keyUsageFlushMs: 100,
    })
  })

  it('selects cluster mode when DOCSVC_DATABASE_URL is set', () => {
    expect(loadConfig({ DOCSVC_DATABASE_URL: 'postgresql://db/docsvc' }).mode).toBe('cluster')
    expect(loadConfig({ DOCSVC_DATABASE_URL: '' }).mode).toBe('embedded')
  })

  it('resolves a relative DOCSVC_DATA_DIR against the working directory', () => {
    expect(loadConfig({ DOCSVC_DATA_DIR: 'var/data' }).dataDir).toBe(path.resolve('var/data'))
  })

  it('lets DOCSVC_DOCS_URL differ from the public URL', () => {
    const config = loadConfig({
      DOCSVC_PUBLIC_URL: 'https://a.example',
      DOCSVC_DOCS_URL: 'https://b.example/',
    })
    expect(config.docsUrl).toBe('https://b.example')
  })

  it('reports every problem at once, each naming its env var', () => {
    const problems = problemsOf({
      DOCSVC_PORT: 'eighty',
      DOCSVC_LOG_LEVEL: 'loud',
      DOCSVC_DATABASE_URL: 'mysql://db/docsvc',
      DOCSVC_NETWORK_ALLOW: '10.0.0.0/8,300.1.1.1/33,example.com',
      DOCSVC_TRUSTED_PROXIES: 'proxy',
      DOCSVC_AUTO_MIGRATE: 'maybe',
      DOCSVC_BODY_LIMIT_BYTES: '10',
    })
    expect(problems).toEqual([
      'DOCSVC_PORT: must be integer (got "eighty")',
      'DOCSVC_LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'DOCSVC_AUTO_MIGRATE: must be boolean (got "maybe")',
      'DOCSVC_BODY_LIMIT_BYTES: must be >= 1024 (got "10")',
      'DOCSVC_DATABASE_URL: must start with postgres:// (empty selects embedded SQLite)',
      'DOCSVC_NETWORK_ALLOW: 300.1.1.1/33 is not a CIDR',
      'DOCSVC_NETWORK_ALLOW: example.com is not a CIDR',
      'DOCSVC_TRUSTED_PROXIES: proxy is not a CIDR',
    ])
  })

  it('refuses an operator token shorter than 32 characters, which could be guessed', () => {
    expect(problemsOf({ DOCSVC_OPERATOR_TOKEN: 'x'.repeat(31) })).toEqual([
      'DOCSVC_OPERATOR_TOKEN: must be at least 32 characters (e.g. the output of `openssl rand -base64 32`); empty switches the admin API off',
    ])
    expect(problemsOf({ DOCSVC_OPERATOR_TOKEN: 'x'.repeat(32) })).toEqual([])
    expect(problemsOf({ DOCSVC_OPERATOR_TOKEN: '' })).toEqual([])
  })

  it('puts the problems in the error message', () => {
    expect(() => loadConfig({ DOCSVC_PORT: '70000' })).toThrow(
      /^Invalid configuration:\n {2}- DOCSVC_PORT: must be <= 65535 \(got "70000"\)$/,
    )
  })
})

describe('queue backend, file store and webhook retry schedule', () => {
  it('default to auto, auto and the schedule of SPEC 6.4', () => {
    expect(loadConfig({})).toMatchObject({
      queueBackend: 'auto',
      fileStore: 'auto',
      webhookRetrySchedule: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
    })
  })

  it('are read from DOCSVC_QUEUE_BACKEND, DOCSVC_FILE_STORE and DOCSVC_WEBHOOK_RETRY_SCHEDULE', () => {
    const config = loadConfig({
      DOCSVC_QUEUE_BACKEND: 'pgboss',
      DOCSVC_FILE_STORE: 'local',
      DOCSVC_WEBHOOK_RETRY_SCHEDULE: '10s, 1m,1d',
    })
    expect(config).toMatchObject({
      queueBackend: 'pgboss',
      fileStore: 'local',
      webhookRetrySchedule: ['10s', '1m', '1d'],
    })
  })

  it('refuse a schedule entry that is no duration, a delay under a second, an empty or too long schedule', () => {
    expect(problemsOf({ DOCSVC_WEBHOOK_RETRY_SCHEDULE: '5s,5 minutes,500ms' })).toEqual([
      'DOCSVC_WEBHOOK_RETRY_SCHEDULE: "5 minutes" is not a duration of at least 1s (e.g. 5s, 5m, 2h, 1d)',
      'DOCSVC_WEBHOOK_RETRY_SCHEDULE: "500ms" is not a duration of at least 1s (e.g. 5s, 5m, 2h, 1d)',
    ])
    expect(problemsOf({ DOCSVC_WEBHOOK_RETRY_SCHEDULE: '' })).toEqual([
      'DOCSVC_WEBHOOK_RETRY_SCHEDULE: must list 1 to 20 delays (got 0)',
    ])
    expect(problemsOf({ DOCSVC_WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1s').join(',') })).toEqual([
      'DOCSVC_WEBHOOK_RETRY_SCHEDULE: must list 1 to 20 delays (got 21)',
    ])
    // deliveries are deleted 30 days after they were made: the schedule must end long before
    expect(problemsOf({ DOCSVC_WEBHOOK_RETRY_SCHEDULE: '4d,4d' })).toEqual([
      'DOCSVC_WEBHOOK_RETRY_SCHEDULE: the delays add up to more than 7d (deliveries are kept 30 days)',
    ])
    expect(problemsOf({ DOCSVC_WEBHOOK_RETRY_SCHEDULE: '1d,6d' })).toEqual([])
  })

  it('refuse a backend or store name that cannot be a provider key', () => {
    expect(problemsOf({ DOCSVC_QUEUE_BACKEND: 'Pg Boss', DOCSVC_FILE_STORE: '' })).toEqual([
      'DOCSVC_QUEUE_BACKEND: must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$" (got "Pg Boss")',
      'DOCSVC_FILE_STORE: must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$" (got "")',
    ])
  })
})

describe('DOCSVC_CONFIG_FILE', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-config-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, body: unknown) => {
    const at = path.join(dir, name)
    writeFileSync(at, typeof body === 'string' ? body : JSON.stringify(body))
    return at
  }

  it('sits underneath env: the file sets values, env vars win', () => {
    const at = file('base.json', { port: 4000, region: 'eu-central', networkAllow: ['10.1.0.0/16'] })
    const config = loadConfig({ DOCSVC_CONFIG_FILE: at, DOCSVC_PORT: '5000' })
    expect(config.port).toBe(5000)
    expect(config.region).toBe('eu-central')
    expect(config.networkAllow).toEqual(['10.1.0.0/16'])
    expect(config.publicUrl).toBe('http://localhost:5000')
  })

  it('reports a file that cannot be read or is not a JSON object', () => {
    expect(() => loadConfig({ DOCSVC_CONFIG_FILE: path.join(dir, 'missing.json') })).toThrow(
      /config file .*missing\.json cannot be read/,
    )
    expect(() => loadConfig({ DOCSVC_CONFIG_FILE: file('list.json', '[1]') })).toThrow(
      /config file .*list\.json is not a JSON object/,
    )
    expect(() => loadConfig({ DOCSVC_CONFIG_FILE: file('broken.json', '{port: 1') })).toThrow(
      /is not a JSON object/,
    )
  })

  it('reports a misspelt setting and a bad value in the file with the rest', () => {
    const at = file('typo.json', { prot: 4000, port: 'x', logLevel: 'info' })
    expect(problemsOf({ DOCSVC_CONFIG_FILE: at, DOCSVC_HOST: 'localhost' })).toEqual([
      `config file ${at}: unknown setting "prot"`,
      `config file ${at}: "port": must be integer (got "x")`,
    ])
  })

  it('names a bad value by the env var when an env var set it over the file', () => {
    const at = file('overridden.json', { port: 4000 })
    expect(problemsOf({ DOCSVC_CONFIG_FILE: at, DOCSVC_PORT: 'x' })).toEqual([
      'DOCSVC_PORT: must be integer (got "x")',
    ])
  })

  it('names the file key for the checks made after reading (CIDRs, database URL, retry delays)', () => {
    const at = file('checks.json', {
      networkAllow: ['10.0.0.0/99'],
      databaseUrl: 'mysql://db',
      webhookRetrySchedule: ['1ms'],
      logLevel: 'loud',
    })
    expect(problemsOf({ DOCSVC_CONFIG_FILE: at })).toEqual([
      `config file ${at}: "logLevel": must be one of fatal, error, warn, info, debug, trace, silent (got "loud")`,
      `config file ${at}: "databaseUrl": must start with postgres:// (empty selects embedded SQLite)`,
      `config file ${at}: "networkAllow": 10.0.0.0/99 is not a CIDR`,
      `config file ${at}: "webhookRetrySchedule": "1ms" is not a duration of at least 1s (e.g. 5s, 5m, 2h, 1d)`,
    ])
  })
})

describe('printableConfig', () => {
  it('masks the operator token, the secret key and the database password', () => {
    const printable = printableConfig(
      loadConfig({
        DOCSVC_OPERATOR_TOKEN: 'op-token-value-0123456789abcdef0123',
        DOCSVC_SECRET_KEY: 'secret-key-value',
        DOCSVC_DATABASE_URL: 'postgres://docsvc:hunter2@db:5432/docsvc',
      }),
    )
    expect(printable.operatorToken).toBe('***')
    expect(printable.secretKey).toBe('***')
    expect(printable.databaseUrl).toBe('postgres://docsvc:***@db:5432/docsvc')
    const text = JSON.stringify(printable)
    for (const secret of ['op-token-value-0123456789abcdef0123', 'secret-key-value', 'hunter2'])
      expect(text).not.toContain(secret)
    expect(printable.port).toBe(3000)
  })

  it('shows empty secrets as empty, so an operator sees they are unset', () => {
    const printable = printableConfig(loadConfig({}))
    expect(printable.operatorToken).toBe('')
    expect(printable.databaseUrl).toBe('')
  })

  it.each([
    ['postgres://u:p@ss@db/x', 'postgres://u:***@db/x'],
    ['postgresql://u:p%40ss@db:5432/x?sslmode=require', 'postgresql://u:***@db:5432/x?sslmode=require'],
    [
      'postgres://db/x?user=u&password=secret&sslmode=require',
      'postgres://db/x?user=u&password=***&sslmode=require',
    ],
    ['postgres://u@db/x', 'postgres://u@db/x'],
  ])('masks %s as %s', (url, masked) => {
    expect(maskDatabaseUrl(url)).toBe(masked)
  })
})
