import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliDatabase, cliDatabase, cliJson, runCli } from './cli-test-support.ts'

describe('workspace billing commands', () => {
  let db: CliDatabase
  beforeAll(async () => {
    db = await cliDatabase('sqlite')
  })
  afterAll(() => db?.cleanup())

  it('shows and sets a workspace plan, cycle start day and top-up limit', async () => {
    const env = db.env
    const ws = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Billed'], env)
    const shown = await cliJson(['workspace', 'billing', ws.id], env)
    expect(shown).toMatchObject({
      object: 'workspace_billing',
      workspace_id: ws.id,
      plan: 'free',
      cycle_start_day: 1,
      top_up_limit: null,
      usage: { renders: 0, included_renders: 50, top_ups: 0 },
    })

    const set = await cliJson(
      [
        'workspace',
        'set-billing',
        ws.id,
        '--plan',
        'growth',
        '--cycle-start-day',
        '15',
        '--top-up-limit',
        '3',
      ],
      env,
    )
    expect(set).toMatchObject({ plan: 'growth', cycle_start_day: 15, top_up_limit: 3 })
    expect((set as { usage: { renders_until_limit: number } }).usage.renders_until_limit).toBe(
      5000 + 3 * 2500,
    )
    const text = await runCli(['workspace', 'billing', ws.id], env)
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^plan\s+growth$/m)
    expect(text.stdout).toMatch(/^cycle start day\s+15$/m)
    expect(text.stdout).toMatch(/^top-up limit\s+3$/m)

    const [unlimited, off, badDay, badLimit, nothing, missing] = await Promise.all([
      cliJson(['workspace', 'set-billing', ws.id, '--top-up-limit', 'none'], env),
      runCli(['workspace', 'set-billing', ws.id, '--top-up-limit', '0'], env),
      runCli(['workspace', 'set-billing', ws.id, '--cycle-start-day', '31', '--json'], env),
      runCli(['workspace', 'set-billing', ws.id, '--top-up-limit', 'lots'], env),
      runCli(['workspace', 'set-billing', ws.id], env),
      runCli(['workspace', 'billing', 'ws_00000000000000000000000000'], env),
    ])
    expect(unlimited).toMatchObject({ top_up_limit: null })
    expect(off.code).toBe(0)
    expect(badDay.code).toBe(1)
    const error = JSON.parse(badDay.stdout).error
    expect(error).toMatchObject({ code: 'validation_error' })
    expect(error.errors[0]).toMatchObject({ path: '/cycle_start_day', code: 'range' })
    expect(badLimit.code).toBe(1)
    expect(badLimit.stderr).toMatch(/top_up_limit must be a whole number of at least 0/)
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toMatch(/nothing to change/)
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/does not exist/)
    // the refusals stored nothing: the last good values stand
    expect(await cliJson(['workspace', 'billing', ws.id], env)).toMatchObject({ cycle_start_day: 15 })
  }, 60_000)
})
