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
