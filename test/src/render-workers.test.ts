import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pdfText } from '@docsvc/core/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliJson, type RunningCli, startCli } from '../../cli/src/cli-test-support.ts'
import { TEST_DATABASE_URL } from '../../core/src/testing/index.ts'

// Cluster mode as an operator runs it: one `docsvc serve --no-worker` (API) and separate
// `docsvc worker` processes on one PostgreSQL, with real Chromium. The database is a throwaway
// one of its own, so the queue's default schema is ours alone.

const database = `docsvc_workers_${randomBytes(4).toString('hex')}`
const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-workers-'))
const running: RunningCli[] = []
let baseUrl: string
let liveKey: string

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

function env(): Record<string, string> {
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${database}`
  return {
    DOCSVC_DATABASE_URL: url.toString(),
    // every process shares the hosted files on this machine's disk
    DOCSVC_DATA_DIR: dataDir,
    DOCSVC_SECRET_KEY: 'workers-test-secret-0123456789abcdef012345',
    DOCSVC_HOST: '127.0.0.1',
    DOCSVC_PORT: '0',
    // a short render limit: a killed worker's job is put back after 10 + 30 s
    DOCSVC_RENDER_TIMEOUT_SECONDS: '10',
    DOCSVC_WORKER_CONCURRENCY: '1',
  }
}

async function startWorker(): Promise<RunningCli> {
  const worker = startCli(['worker'], env())
  running.push(worker)
  await worker.waitFor(/"msg":"docsvc started"/, 60_000)
  return worker
}

interface RenderJson {
  id: string
  status: string
  files: { id: string; pages?: number }[]
  error: unknown
}

async function api<T = RenderJson>(method: string, url: string, body?: object) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${liveKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as T }
}

/** The file's bytes, streamed by the API process from the files the workers wrote. */
async function fileBytes(render: RenderJson): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/v1/renders/${render.id}/files/${render.files[0]?.id}?inline=true`, {
    headers: { authorization: `Bearer ${liveKey}` },
  })
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

async function untilFinished(id: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs
  for (;;) {
    const { body } = await api('GET', `/v1/renders/${id}`)
    if (!['queued', 'processing'].includes(body.status) || Date.now() > until) return body
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** The render's log lines naming the worker of each attempt (render-runner.ts). */
async function attempts(id: string): Promise<string[]> {
  const { body } = await api<{ lines: { message: string }[] }>('GET', `/v1/renders/${id}/logs`)
  return body.lines.map((l) => l.message).filter((m) => m.startsWith('attempt '))
}

const pidOf = (line: string) => Number(line.split('/').at(-1))

beforeAll(async () => {
  await admin(`create database ${database}`)
  const serve = startCli(['serve', '--no-worker', '--json'], env())
  running.push(serve)
  const [line] = await serve.waitFor(/^\{"first_run".*$/m, 60_000)
  const firstRun = JSON.parse(line).first_run
  // cluster mode prints no live key, only the command that makes one
  expect(firstRun.create_live_key).toBe(`docsvc key create --workspace ${firstRun.workspace_id} --mode live`)
  const created = await cliJson<{ key: string }>(
    ['key', 'create', '--workspace', firstRun.workspace_id, '--mode', 'live'],
    env(),
  )
  liveKey = created.key
  baseUrl = (await serve.waitFor(/"url":"(http:\/\/[^"]+)"/))[1]!
}, 90_000)

afterAll(async () => {
  await Promise.allSettled(running.splice(0).map((cli) => cli.stop(20_000)))
  await admin(`drop database if exists ${database} with (force)`)
  rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

describe('docsvc worker processes on one PostgreSQL', () => {
  it('share the renders created through the API process, each render done once', async () => {
    const workers = [await startWorker(), await startWorker()]
    const pids = workers.map((w) => w.child.pid)
    // a short wait in each page keeps one worker busy while the other takes the next render
    const created = []
    for (let i = 1; i <= 6; i++) {
      const html = `<h1>Render ${i}</h1><script>const t = Date.now(); while (Date.now() - t < 300) {}</script>`
      const res = await api('POST', '/v1/renders', { mode: 'async', input: { type: 'html', html } })
      expect(res.status).toBe(202)
      created.push(res.body.id)
    }
    const ranOn = new Set<number>()
    for (const [i, id] of created.entries()) {
      const done = await untilFinished(id, 60_000)
      expect(done.status).toBe('succeeded')
      expect(done.files[0]?.pages).toBe(1)
      expect(pdfText(await fileBytes(done))).toContain(`Render ${i + 1}`)
      const lines = await attempts(id)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^attempt 1 on worker /)
      ranOn.add(pidOf(lines[0]!))
    }
    // both processes took part, and no render was run by anyone else
    expect([...ranOn].sort()).toEqual([...pids].sort())
    await workers[1]!.stop(20_000)
  }, 120_000)

  it('finishes the render of a worker killed with SIGKILL mid-render: retried, billed once', async () => {
    const usage = async () =>
      (await api<{ usage: { renders: number } }>('GET', '/v1/account')).body.usage.renders
    const billedBefore = await usage()
    const killed = running.find(
      (cli) => cli.child.exitCode === null && cli.output().includes('"roles":["worker"]'),
    )!
    // two seconds of script: well inside the render limit, even on a busy machine and a cold
    // browser, and long enough to be killed in
    const html = '<h1>Survivor</h1><script>const t = Date.now(); while (Date.now() - t < 2000) {}</script>'
    const res = await api('POST', '/v1/renders', { mode: 'async', input: { type: 'html', html } })
    expect(res.status).toBe(202)
    const id = res.body.id
    let status = 'queued'
    for (let i = 0; i < 100 && status !== 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      status = (await api('GET', `/v1/renders/${id}`)).body.status
    }
    expect(status).toBe('processing')
    killed.child.kill('SIGKILL')
    const replacement = await startWorker()
    const done = await untilFinished(id, 100_000)
    expect(done).toMatchObject({ status: 'succeeded', error: null })
    expect(pdfText(await fileBytes(done))).toContain('Survivor')
    // the killed attempt left no log; the second one ran on the replacement
    const lines = await attempts(id)
    expect(lines).toEqual([`attempt 2 on worker ${lines[0]?.split(' ').at(-1)}`])
    expect(pidOf(lines[0]!)).toBe(replacement.child.pid)
    expect(await usage()).toBe(billedBefore + 1)
  }, 150_000)
})
