import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url))
const CONFIG = fileURLToPath(new URL('./kernel/config.ts', import.meta.url))
const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-guards-'))

/** Starts the real server (API role) in a child, then runs `after` there; returns how it ended. */
function serveThen(after: string) {
  const script = `
    import { startServer } from ${JSON.stringify(SERVER)}
    import { loadConfig } from ${JSON.stringify(CONFIG)}
    const kernel = await startServer(loadConfig(process.env), ['api'])
    const base = 'http://127.0.0.1:' + kernel.app.server.address().port
    ${after}
  `
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    // a kernel boots in a second or two, but CI's cores are shared with other suites
    timeout: 80_000,
    env: {
      PATH: process.env.PATH,
      DOCSVC_DATA_DIR: dataDir,
      DOCSVC_PORT: '0',
      DOCSVC_HOST: '127.0.0.1',
      DOCSVC_FIRST_RUN: 'false',
      DOCSVC_LOG_LEVEL: 'info',
    },
  })
}

const messages = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg)

describe('process-level guards of a serving process (issue 13 item 10)', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('log a promise rejection nobody handled and keep serving', () => {
    const run = serveThen(`
      Promise.reject(new Error('a stray rejection'))
      setTimeout(async () => {
        const res = await fetch(base + '/healthz')
        console.log(JSON.stringify({ msg: 'still serving: ' + res.status }))
        process.kill(process.pid, 'SIGTERM')
      }, 300)
    `)
    expect(run.signal).toBeNull()
    expect(messages(run.stdout)).toEqual(
      expect.arrayContaining([
        'a promise was rejected and nothing handled it; serving on',
        'still serving: 200',
        'stopped',
      ]),
    )
    expect(run.status).toBe(0)
  }, 90_000)

  it('stop in good order, with exit code 1, on an uncaught exception', () => {
    const run = serveThen(`setTimeout(() => { throw new Error('a thrown bug') }, 100)`)
    expect(run.signal).toBeNull()
    expect(messages(run.stdout)).toEqual(
      expect.arrayContaining(['an exception was not caught; stopping', 'shutting down', 'stopped']),
    )
    expect(run.status).toBe(1)
  }, 90_000)
})
