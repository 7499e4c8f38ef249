import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { PluginLogger } from '@docsvc/core/sdk'
import { testOutboundGuard } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserPool } from './browser-pool.ts'
import { DEFAULT_CHROMIUM_CONFIG } from './chromium-config.ts'
import { outputContext, pdfText, testPool } from './chromium-test-support.ts'
import { dataDirExposure, prepareChromiumLaunch } from './chromium-user.ts'
import { PdfOutput } from './pdf-output.ts'

// What a page's JavaScript could reach if it broke out of the renderer: the browser's uid, its
// environment, its sandbox. Read from /proc of the processes the pool really started.

const CANARY = 'canary-secret-0123456789abcdef0123456789'
const PLANTED = {
  DOCSVC_SECRET_KEY: CANARY,
  DOCSVC_OPERATOR_TOKEN: CANARY,
  DOCSVC_DATABASE_URL: `postgres://docsvc:${CANARY}@db:5432/docsvc`,
  DATABASE_URL: `postgres://docsvc:${CANARY}@db:5432/docsvc`,
  AWS_SECRET_ACCESS_KEY: CANARY,
}
const asRoot = process.getuid?.() === 0

function proc(pid: number, file: string): string {
  return readFileSync(`/proc/${pid}/${file}`, 'utf8')
}

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(proc(pid, 'status'))?.[1])
const environOf = (pid: number) => proc(pid, 'environ').split('\0').filter(Boolean)
// Chromium's helper processes rewrite their command line as one string: match on words
const argsOf = (pid: number) => proc(pid, 'cmdline').split(/[\0 ]/)

/** Every process started under `pid`, followed through /proc's parent links. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // the command name may hold spaces; the fields after its closing parenthesis do not
      const stat = proc(Number(entry), 'stat')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {}
  }
  const found: number[] = []
  let frontier = [pid]
  while (frontier.length > 0) {
    const next = [...parents].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child)
    found.push(...next)
    frontier = next
  }
  return found
}

function recordingLog(): PluginLogger & { warnings: string[]; errors: string[] } {
  const warnings: string[] = []
  const errors: string[] = []
  return {
    warnings,
    errors,
    info() {},
    debug() {},
    warn: (msg) => warnings.push(msg),
    error: (msg) => errors.push(msg),
  }
}

async function renderHello(pool: BrowserPool): Promise<string> {
  const file = await new PdfOutput(pool).render(
    { kind: 'html', html: '<h1>Hello sandbox</h1>' },
    {},
    outputContext(),
  )
  return pdfText(file.bytes)
}

describe('Chromium as started by default', () => {
  let pool: BrowserPool
  let browser: number
  const log = recordingLog()
  const saved = { ...process.env }

  beforeAll(async () => {
    // secrets in the service's environment, as an operator's deployment has them
    Object.assign(process.env, PLANTED)
    pool = testPool([], {}, undefined, log)
    await pool.start()
    expect(await renderHello(pool)).toContain('Hello sandbox')
    browser = (await pool.browserPid()) as number
  })
  afterAll(async () => {
    await pool.stop()
    for (const name of Object.keys(PLANTED)) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  })

  it('starts without a warning', () => {
    expect(log.warnings).toEqual([])
  })

  it('holds no DOCSVC_ variable and no secret in any of its processes', () => {
    const processes = [browser, ...descendants(browser)]
    expect(processes.length).toBeGreaterThan(2)
    for (const pid of processes) {
      let environ: string[]
      try {
        environ = environOf(pid)
      } catch {
        continue // a helper process that ended meanwhile
      }
      expect(environ.filter((v) => v.startsWith('DOCSVC_'))).toEqual([])
      expect(environ.filter((v) => v.includes(CANARY) || /^(DATABASE_URL|AWS_)/.test(v))).toEqual([])
    }
    const env = environOf(browser)
    expect(env).toContain('PATH=/usr/local/bin:/usr/bin:/bin')
    const home = env.find((v) => v.startsWith('HOME='))?.slice(5) as string
    expect(statSync(home).uid).toBe(uidOf(browser))
  })

  it.runIf(asRoot)('runs as an unprivileged user while the service is root', () => {
    expect(uidOf(browser)).toBe(DEFAULT_CHROMIUM_CONFIG.runAsUid)
    for (const pid of descendants(browser)) expect(uidOf(pid)).not.toBe(0)
  })

  it('keeps its sandbox: no --no-sandbox, renderers under seccomp', () => {
    expect(argsOf(browser)).not.toContain('--no-sandbox')
    const renderers = descendants(browser).filter((pid) => argsOf(pid).includes('--type=renderer'))
    expect(renderers.length).toBeGreaterThan(0)
    // 2: a seccomp-bpf filter, which Chromium installs only in its sandboxed processes
    for (const pid of renderers) expect(proc(pid, 'status')).toMatch(/^Seccomp:\s+2$/m)
  })
})

describe('the sandbox switched off', () => {
  it('is an explicit setting that logs a warning at start naming it', async () => {
    const log = recordingLog()
    const off = testPool([], { sandbox: false }, undefined, log)
    try {
      await off.start()
      expect(log.warnings).toEqual([expect.stringContaining('DOCSVC_PLUGIN_CHROMIUM_SANDBOX=false')])
      expect(await renderHello(off)).toContain('Hello sandbox')
      const browser = (await off.browserPid()) as number
      expect(argsOf(browser)).toContain('--no-sandbox')
      // off means no sandbox, still never root
      if (asRoot) expect(uidOf(browser)).not.toBe(0)
    } finally {
      await off.stop()
    }
  })
})

describe('a machine where the sandbox cannot work', () => {
  it('fails start with a message naming the setting that turns it off', async () => {
    const refused = prepareChromiumLaunch({
      chromiumPath: '/usr/bin/chromium',
      config: DEFAULT_CHROMIUM_CONFIG,
      probeNamespaces: async () => 'unshare failed: Operation not permitted',
    })
    await expect(refused).rejects.toThrow(/sandbox cannot work here.*Operation not permitted/)
    await expect(refused).rejects.toThrow(/DOCSVC_PLUGIN_CHROMIUM_SANDBOX=false/)
  })

  it('keeps Chromium folders out of the data dir', async () => {
    await expect(
      prepareChromiumLaunch({
        chromiumPath: '/usr/bin/chromium',
        config: DEFAULT_CHROMIUM_CONFIG,
        dataDir: '/',
      }),
    ).rejects.toThrow(/inside the data dir/)
  })

  it.runIf(asRoot)("warns when Chromium's uid could enter the data dir", async () => {
    const launch = await prepareChromiumLaunch({
      chromiumPath: '/usr/bin/chromium',
      config: DEFAULT_CHROMIUM_CONFIG,
    })
    const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-exposed-'))
    try {
      expect(await dataDirExposure(launch, dir)).toBeUndefined()
      chmodSync(dir, 0o755)
      expect(await dataDirExposure(launch, dir)).toMatch(
        /can be entered by Chromium's uid 65534: chmod o-rwx/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await launch.dispose()
    }
  })

  it('reports a browser that refuses to start for its sandbox with the same advice', async () => {
    // a stand-in for Chromium on a machine where its sandbox fails after the start check
    const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-fake-chromium-'))
    const fake = path.join(dir, 'chromium')
    writeFileSync(
      fake,
      '#!/bin/sh\necho "[1:1:FATAL:zygote_host_impl_linux.cc] No usable sandbox!" >&2\nexit 1\n',
    )
    chmodSync(dir, 0o755)
    chmodSync(fake, 0o755)
    const log = recordingLog()
    const pool = new BrowserPool({
      chromiumPath: fake,
      config: DEFAULT_CHROMIUM_CONFIG,
      guard: testOutboundGuard([]),
      log,
    })
    try {
      await pool.start()
      // the tenant learns that the render failed; the operator's advice goes to the log
      const failed = renderHello(pool)
      await expect(failed).rejects.toMatchObject({ code: 'render_failed' })
      await expect(failed).rejects.not.toThrow(/DOCSVC_/)
      // the warm launch of start() and the render's may each fail and log
      expect(log.errors.length).toBeGreaterThan(0)
      for (const error of log.errors)
        expect(error).toMatch(/sandbox cannot work.*DOCSVC_PLUGIN_CHROMIUM_SANDBOX=false/)
      expect(pool.health()).toMatchObject({
        ok: false,
        detail: expect.stringContaining('sandbox cannot work'),
      })
    } finally {
      await pool.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
