import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// One real docsvc process (`serve` or `worker`), started with the real CLI entry the way an
// operator starts it, and killed the way a crash kills it: SIGKILL to its whole process group,
// so nothing it started (a browser, a launcher child) outlives it, as in a container.

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const BIN = path.join(REPO_ROOT, 'cli', 'bin', 'docsvc.js')
const STARTED = /"msg":"docsvc started"/
/** what is kept of a process's output for a failure message */
const OUTPUT_TAIL = 20_000

export interface ServiceSpec {
  /** a name for reports: api, worker-1, ... */
  name: string
  args: string[]
  env: Record<string, string>
}

/** The caller's DOCSVC_* variables stay out: the harness states the config it means. */
export function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DOCSVC_')))
  return { ...base, NO_COLOR: '1', ...env }
}

export class ServiceProcess {
  readonly spec: ServiceSpec
  #child: ChildProcess | undefined
  #output = ''
  #exited: Promise<void> = Promise.resolve()
  /** starts of this process so far, the first included */
  starts = 0

  constructor(spec: ServiceSpec) {
    this.spec = spec
  }

  get running(): boolean {
    const child = this.#child
    return child !== undefined && child.exitCode === null && child.signalCode === null
  }

  /** the tail of everything the process printed, across restarts */
  output(): string {
    return this.#output
  }

  /** Starts the process and resolves once it logged that it started (its port is open, its worker runs). */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error(`${this.spec.name} is already running`)
    this.starts++
    const child = spawn(process.execPath, [BIN, ...this.spec.args], {
      cwd: REPO_ROOT,
      env: serviceEnv(this.spec.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group: a kill reaches everything it started
      detached: true,
    })
    this.#child = child
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()))
    // this start's first lines, where the start line appears
    let head = ''
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      if (head.length < OUTPUT_TAIL) head += text
      this.#output = (this.#output + text).slice(-OUTPUT_TAIL)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    const until = Date.now() + timeoutMs
    // bounded polling of its own output: the start line, an early exit, or the deadline
    for (;;) {
      if (STARTED.test(head)) return
      if (!this.running) throw new Error(`${this.spec.name} exited while starting:\n${this.#output}`)
      if (Date.now() > until) {
        await this.kill()
        throw new Error(`${this.spec.name} did not start within ${timeoutMs} ms:\n${this.#output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  /** kill -9 of the process group; resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.#child
    if (!child?.pid || !this.running) return
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // the group is gone already
    }
    await this.#exited
  }

  /** A clean stop (SIGTERM), with kill -9 after `timeoutMs`. */
  async stop(timeoutMs = 20_000): Promise<void> {
    const child = this.#child
    if (!child?.pid || !this.running) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => void this.kill(), timeoutMs)
    await this.#exited
    clearTimeout(timer)
    // whatever the process group still holds (a browser mid-shutdown) goes too
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
}
