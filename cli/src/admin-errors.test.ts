import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createPgSchema } from '@docsvc/core/testing'
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
    // what was not found is named with the database it was looked for in
    const database = `SQLite database ${path.join(db.dataDir, 'docsvc.sqlite')}`
    expect(JSON.parse(missingWs.stdout)).toEqual({
      error: {
        code: 'not_found',
        message: `not_found: workspace ws_missing does not exist (looked in the ${database})`,
      },
    })
    expect(missingWs.stderr).toContain('workspace ws_missing does not exist')
    expect(missingWsText.code).toBe(1)
    // oclif wraps long lines on stderr; the JSON above holds the whole message
    expect(missingWsText.stderr).toMatch(
      /Error: not_found: workspace ws_missing does not exist \(looked in the/,
    )
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
    expect(JSON.parse(missingKey.stdout).error).toEqual({
      code: 'not_found',
      message: `not_found: API key key_missing does not exist (looked in the ${database})`,
    })
    expect(badCidr.code).toBe(1)
    expect(badCidr.stderr).toMatch(/nope/)
    expect(badDate.code).toBe(1)
    expect(badDate.stderr).toMatch(/expires_at soon is not a date/)
  }, 60_000)

  it('refuse to create a database: a data dir without one is an error naming where they looked', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'docsvc-cli-empty-'))
    const dataDir = path.join(empty, 'data')
    try {
      const env = { DOCSVC_DATA_DIR: dataDir, DOCSVC_FIRST_RUN: 'false' }
      const [text, json] = await Promise.all([
        runCli(['workspace', 'list'], env),
        runCli(['key', 'list', '--workspace', 'ws_x', '--json'], env),
      ])
      expect(text.code).toBe(2)
      expect(text.stderr).toMatch(/Error: No docsvc database/)
      expect(json.code).toBe(2)
      const { error } = JSON.parse(json.stdout)
      expect(error.code).toBe('database_not_found')
      expect(error.message).toContain(
        `No docsvc database: there is no SQLite database ${path.join(dataDir, 'docsvc.sqlite')} (DOCSVC_DATA_DIR is ${dataDir})`,
      )
      expect(error.message).toMatch(/DOCSVC_DATABASE_URL/)
      expect(error.message).toMatch(/docsvc migrate/)
      // nothing was made where they looked
      expect(existsSync(dataDir)).toBe(false)
      // migrate still creates it, and then the same command works
      expect((await runCli(['migrate'], env)).code).toBe(0)
      expect(await cliJson(['workspace', 'list'], env)).toEqual(expect.any(Object))
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  }, 60_000)

  it('refuse a PostgreSQL database without docsvc tables, naming it without its password', async () => {
    const pg = await cliDatabase('postgres')
    const url = new URL(pg.env.DOCSVC_DATABASE_URL!)
    // a schema that exists but was never migrated
    const empty = await createPgSchema()
    url.searchParams.set('options', `-c search_path=${empty.schema}`)
    url.password = 'hunter2'
    try {
      const res = await runCli(['workspace', 'list', '--json'], {
        ...pg.env,
        DOCSVC_DATABASE_URL: url.toString(),
      })
      expect(res.code).toBe(2)
      const { error } = JSON.parse(res.stdout)
      expect(error.code).toBe('database_not_found')
      expect(error.message).toContain('No docsvc database: the PostgreSQL database postgres://')
      expect(error.message).toContain('has no docsvc tables')
      expect(res.stdout + res.stderr).not.toContain('hunter2')
    } finally {
      await empty.drop()
      await pg.cleanup()
    }
  }, 60_000)
})
