import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type RunningCli, startCli } from './cli-test-support.ts'

const dirs: string[] = []
const running: RunningCli[] = []

function emptyDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-serve-'))
  dirs.push(dir)
  return dir
}

function launch(args: string[], env: Record<string, string>): RunningCli {
  const cli = startCli(args, env)
  running.push(cli)
  return cli
}

afterEach(async () => {
  // a failed assertion must not leave a server behind
  await Promise.allSettled(running.splice(0).map((cli) => cli.stop()))
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('docsvc serve and worker', () => {
  it('first run prints the keys once with a curl line that works; SIGTERM exits 0', async () => {
    // port 0: the banner must show the port actually bound
    const env = { DOCSVC_DATA_DIR: emptyDataDir(), DOCSVC_PORT: '0', DOCSVC_HOST: '127.0.0.1' }
    const serve = launch(['serve'], env)
    const [, testKey] = await serve.waitFor(/test key: (doc_test_\S+)/)
    const [, liveKey] = await serve.waitFor(/live key: (doc_live_\S+)/)
    const [, curlKey, baseUrl] = await serve.waitFor(
      /curl -H "Authorization: Bearer (\S+)" (http:\/\/\S+)\/v1\/account/,
    )
    expect(curlKey).toBe(testKey)
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(baseUrl).not.toMatch(/:0$/)

    const account = await fetch(`${baseUrl}/v1/account`, { headers: { authorization: `Bearer ${testKey}` } })
    expect(account.status).toBe(200)
    expect(await account.json()).toMatchObject({ key: { mode: 'test' }, plan: { id: 'scale' } })
    const live = await fetch(`${baseUrl}/v1/account`, { headers: { 'x-api-key': liveKey as string } })
    expect(live.status).toBe(200)

    const anonymous = await fetch(`${baseUrl}/v1/account`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const problem = (await anonymous.json()) as { code: string; request_id: string }
    expect(problem.code).toBe('authentication_required')
    expect(problem.request_id).toBeTruthy()
    expect(problem.request_id).toBe(anonymous.headers.get('x-request-id'))

    const started = Date.now()
    expect(await serve.stop(20_000)).toBe(0)
    expect(Date.now() - started).toBeLessThan(5_000)

    // a second start on the same data dir: no new workspace, no keys; --no-worker runs the API alone
    const again = launch(['serve', '--no-worker'], env)
    const [startedLine] = await again.waitFor(/.*"msg":"docsvc started".*/)
    expect(JSON.parse(startedLine).roles).toEqual(['api'])
    expect(again.output()).not.toMatch(/doc_(test|live)_/)
    expect(again.output()).not.toContain('first run')
    expect(await again.stop(20_000)).toBe(0)
  })

  it('serve --json prints the first-run keys as one JSON line', async () => {
    const serve = launch(['serve', '--json'], {
      DOCSVC_DATA_DIR: emptyDataDir(),
      DOCSVC_PORT: '0',
      DOCSVC_PUBLIC_URL: 'https://docs.example.com',
    })
    const [line] = await serve.waitFor(/^\{"first_run".*$/m)
    const { first_run: firstRun } = JSON.parse(line)
    expect(firstRun).toMatchObject({
      workspace_id: expect.stringMatching(/^ws_/),
      test_key: expect.stringMatching(/^doc_test_/),
      live_key: expect.stringMatching(/^doc_live_/),
      // an operator-set public URL is where clients reach the service
      url: 'https://docs.example.com',
    })
    expect(firstRun.curl).toContain(`Bearer ${firstRun.test_key}" https://docs.example.com/v1/account`)
    // shutdown closes the worker's browser too, which takes a while on a busy machine
    expect(await serve.stop(20_000)).toBe(0)
  })

  it('worker starts without a port or first-run keys, logs, and stops on SIGTERM', async () => {
    const worker = launch(['worker'], { DOCSVC_DATA_DIR: emptyDataDir() })
    const [line] = await worker.waitFor(/.*"msg":"docsvc started".*/)
    const started = JSON.parse(line)
    expect(started.roles).toEqual(['worker'])
    expect(started.url).toBeUndefined()
    // it must stay up by itself until told to stop
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(worker.child.exitCode).toBeNull()
    expect(await worker.stop(20_000)).toBe(0)
    expect(worker.output()).not.toMatch(/doc_(test|live)_|Server listening/)
    expect(worker.output()).toMatch(/"msg":"stopped"/)
  })
})
