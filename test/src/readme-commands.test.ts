import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, type RunningCli, startCli } from '../../cli/src/cli-test-support.ts'
import { fencedBlocks } from './docs-examples/markdown-blocks.ts'
import { ExampleShell } from './docs-examples/run-shell.ts'

// Every command of the README's ```sh blocks, run in order as a new user copies them: the server
// started as `npm start` starts it (the same `docsvc serve`, on a fresh temp data dir and a free
// port), and the placeholders a reader fills in (the key the first run prints, ids an earlier
// command printed, the port) filled in by the test. A command the test does not know how to run
// fails it, so a new README command is either run here or listed with the reason it is not.

const NOT_RUN: ReadonlyMap<RegExp, string> = new Map([
  [/^npm test\b/, 'runs the whole suite, this test among it'],
])

/** `[NAME=value ...] npm start`: the environment it is started with */
const NPM_START = /^((?:[A-Z_]+=\S+\s+)*)npm start\b/

/** The README's commands in order, continuation lines joined. */
function readmeCommands(): string[] {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
  return fencedBlocks(readme, 'README.md')
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => block.body.replace(/\\\n\s*/g, '').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

function assignments(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  )
}

/** A local app that receives forwarded webhooks: the README's `http://localhost:8080/hook`. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Promise<string> }> {
  let resolve: (body: string) => void = () => {}
  const received = new Promise<string>((r) => {
    resolve = r
  })
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      res.writeHead(200).end()
      resolve(body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }
}

async function untilReady(base: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${base}/readyz did not answer 200 within 2 minutes`)
}

function waitForOutput(child: ChildProcess, pattern: RegExp, what: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within 2 minutes:\n${what()}`)), 120_000)
    const check = () => {
      if (!pattern.test(what())) return
      clearTimeout(timer)
      resolve()
    }
    child.stdout?.on('data', check)
    child.stderr?.on('data', check)
    child.on('exit', (code) => reject(new Error(`exited ${code} before ${pattern}:\n${what()}`)))
    check()
  })
}

describe('README commands, copied verbatim on a fresh start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-readme-'))
  const shell = new ExampleShell({ DOCSVC_DATA_DIR: dataDir })
  let server: RunningCli | undefined
  let receiver: Server | undefined

  afterAll(async () => {
    await server?.stop(20_000)
    receiver?.close()
    shell.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('every command works', { timeout: 540_000 }, async () => {
    const local = await startReceiver()
    receiver = local.server
    const env: Record<string, string> = {}
    const filled: Record<string, string> = { 'http://localhost:8080/hook': local.url }
    let port = '0'
    const fill = (command: string) =>
      Object.entries(filled).reduce((text, [from, to]) => text.replaceAll(from, to), command)
    const ran: string[] = []

    for (const command of readmeCommands()) {
      if ([...NOT_RUN.keys()].some((pattern) => pattern.test(command))) continue
      ran.push(command)
      await runCommand(command).catch((err: Error) => {
        throw new Error(`README command \`${command}\`: ${err.message}\nserver output:\n${server?.output()}`)
      })
    }
    expect(ran.length).toBeGreaterThanOrEqual(10)

    async function runCommand(command: string): Promise<void> {
      const start = NPM_START.exec(command)
      if (start) {
        await server?.stop(20_000)
        server = startCli(['serve'], {
          DOCSVC_DATA_DIR: dataDir,
          DOCSVC_HOST: '127.0.0.1',
          DOCSVC_PORT: port,
          ...assignments(start[1] as string),
        })
        if (port === '0') {
          // the first run prints the keys and a curl line with the address it listens on
          const [, key, base] = await server.waitFor(
            /curl -H "Authorization: Bearer (doc_test_\S+)" (\S+)\/v1\/account/,
            // a first start migrates a new database: minutes on a loaded machine
            180_000,
          )
          filled['doc_test_...'] = key as string
          filled['http://localhost:3000'] = base as string
          port = new URL(base as string).port
        }
        await untilReady(filled['http://localhost:3000'] as string)
        return
      }
      const line = fill(command)
      expect(line, 'a placeholder the test does not fill').not.toMatch(/\.\.\./)
      if (line.startsWith('export ')) {
        Object.assign(env, assignments(line.slice('export '.length)))
      } else if (line.startsWith('curl ')) {
        const answer = await shell.curl(line, env)
        expect(answer.status, `${command}\n${answer.body}`).toBeLessThan(300)
        const out = / -o (\S+)/.exec(line)?.[1]
        if (out) expect(shell.file(out).subarray(0, 5).toString()).toBe('%PDF-')
      } else if (/^npx docsvc webhooks listen\b/.test(line)) {
        await listenAndReceive(line, env, filled, local.received)
      } else if (line.startsWith('npx docsvc ')) {
        const result = await shell.run(line, env, { cwd: REPO_ROOT })
        expect(result.exitCode, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0)
        // later commands name what this one made (`ws_...`, `key_...`)
        for (const [, id, kind] of result.stdout.matchAll(/"id":\s*"((ws|key)_[^"]+)"/g)) {
          filled[`${kind}_...`] ??= id as string
        }
      } else {
        throw new Error('the test does not know how to run it')
      }
    }
  })

  /**
   * Runs `webhooks listen` as a reader does, makes a render so that an event is delivered, checks
   * the local app got it, then stops the command as Ctrl-C does (SIGINT to its process group).
   */
  async function listenAndReceive(
    line: string,
    env: Record<string, string>,
    filled: Record<string, string>,
    received: Promise<string>,
  ): Promise<void> {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('DOCSVC_')),
    )
    const child = spawn('bash', ['-c', line], {
      cwd: REPO_ROOT,
      env: { ...inherited, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    try {
      await waitForOutput(child, /Ready: endpoint/, () => output)
      const render = await fetch(`${filled['http://localhost:3000']}/v1/pdf/from-html`, {
        method: 'POST',
        headers: { authorization: `Bearer ${filled['doc_test_...']}`, 'content-type': 'application/json' },
        body: JSON.stringify({ html: '<p>webhook</p>' }),
      })
      expect(render.status).toBe(200)
      expect(JSON.parse(await received)).toMatchObject({ type: 'render.succeeded' })
      await waitForOutput(child, /render\.succeeded\s.*signature ok\s+-> 200/, () => output)
    } finally {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGINT')
    }
    await waitForOutput(child, /Removed endpoint/, () => output)
  }
})
