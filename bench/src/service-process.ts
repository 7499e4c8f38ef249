import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface ServiceProcess {
  url: string
  key: string
  /** DOCSVC_DATA_DIR, removed on stop */
  dataDir: string
  child: ChildProcess
  /** peak resident memory of the service process and its browser children, in MB */
  peakRssMb(): { service: number; browsers: number }
  /** resident memory now, in MB */
  rssMb(): { service: number; browsers: number }
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return Number(match?.[1] ?? 0)
  } catch {
    return 0
  }
}

function descendants(pid: number): number[] {
  const out: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1])
      if (ppid === pid) out.push(Number(entry), ...descendants(Number(entry)))
    } catch {}
  }
  return out
}

/** Starts `docsvc serve` (embedded mode) on a fresh data dir and reads its first-run live key. */
export async function startService(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-bench-'))
  const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin/docsvc.js'), 'serve', '--json'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DOCSVC_PORT: String(port),
      DOCSVC_HOST: '127.0.0.1',
      DOCSVC_DATA_DIR: dataDir,
      DOCSVC_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const key = await new Promise<string>((resolve, reject) => {
    let buffer = ''
    const timer = setTimeout(() => reject(new Error('service did not print its keys')), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const live = /doc_live_[0-9a-z]{24}_[A-Za-z0-9]{40}/.exec(buffer)
      if (live) {
        clearTimeout(timer)
        resolve(live[0])
      }
    })
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)))
  })
  let browserPeak = 0
  const sampler = setInterval(() => {
    const total = descendants(child.pid!).reduce((n, pid) => n + statusKb(pid, 'VmRSS'), 0)
    browserPeak = Math.max(browserPeak, total)
  }, 250)
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    dataDir,
    child,
    peakRssMb: () => ({ service: statusKb(child.pid!, 'VmHWM') / 1024, browsers: browserPeak / 1024 }),
    rssMb: () => ({
      service: statusKb(child.pid!, 'VmRSS') / 1024,
      browsers: descendants(child.pid!).reduce((n, pid) => n + statusKb(pid, 'VmRSS'), 0) / 1024,
    }),
    stop: () =>
      new Promise((resolve) => {
        clearInterval(sampler)
        child.once('exit', () => {
          // its data dir holds every file the run made (a split's 200 parts per render)
          rmSync(dataDir, { recursive: true, force: true })
          resolve()
        })
        child.kill('SIGTERM')
      }),
  }
}
