import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliDatabase, cliDatabase, cliJson, runCli } from './cli-test-support.ts'

describe('admin command errors', () => {
  let db: CliDatabase
  beforeAll(async () => {
    db = await cliDatabase('sqlite')
  })
  afterAll(() => db?.cleanup())

  it('exit non-zero with a readable message, and a JSON error with --json', async () => {
    const env = db.env
    const ws = await cliJson(['workspace', 'create', '--name', 'Errors'], env)
    const [missingWs, missingWsText, badMode, badPlan, badSetPlan, badGrace, missingKey, badCidr, badDate] =
      await Promise.all([
        runCli(['key', 'create', '--workspace', 'ws_missing', '--mode', 'test', '--json'], env),
        runCli(['key', 'list', '--workspace', 'ws_missing'], env),
        runCli(['key', 'create', '--workspace', ws.id as string, '--mode', 'prod', '--json'], env),
        runCli(['workspace', 'create', '--name', 'Gold', '--plan', 'gold'], env),
        runCli(['workspace', 'set-plan', ws.id as string, 'gold', '--json'], env),
        runCli(['key', 'roll', 'key_whatever', '--grace', '5'], env),
        runCli(['key', 'revoke', 'key_missing', '--json'], env),
        runCli(
          ['key', 'create', '--workspace', ws.id as string, '--mode', 'live', '--ip-allow', 'nope'],
          env,
        ),
        runCli(
          ['key', 'create', '--workspace', ws.id as string, '--mode', 'live', '--expires-at', 'soon'],
          env,
        ),
      ])
    expect(missingWs.code).toBe(1)
    expect(JSON.parse(missingWs.stdout)).toEqual({
      error: { code: 'not_found', message: 'not_found: workspace ws_missing does not exist' },
    })
    expect(missingWs.stderr).toContain('workspace ws_missing does not exist')
    expect(missingWsText.code).toBe(1)
    expect(missingWsText.stderr).toMatch(/Error: not_found: workspace ws_missing does not exist/)
    expect(badMode.code).toBe(2)
    expect(JSON.parse(badMode.stdout).error).toEqual({
      code: 'invalid_arguments',
      message: 'Expected --mode=prod to be one of: test, live',
    })
    expect(badPlan.code).toBe(1)
    expect(badPlan.stderr).toMatch(/validation_error: unknown plan gold/)
    expect(badSetPlan.code).toBe(1)
    expect(JSON.parse(badSetPlan.stdout).error.code).toBe('validation_error')
    expect(badGrace.code).toBe(2)
    expect(badGrace.stderr).toMatch(/Expected --grace=5 to be one of: 0, 1, 24, 72/)
    expect(missingKey.code).toBe(1)
    expect(JSON.parse(missingKey.stdout).error.code).toBe('not_found')
    expect(badCidr.code).toBe(1)
    expect(badCidr.stderr).toMatch(/nope/)
    expect(badDate.code).toBe(1)
    expect(badDate.stderr).toMatch(/expires_at soon is not a date/)
  }, 60_000)
})
