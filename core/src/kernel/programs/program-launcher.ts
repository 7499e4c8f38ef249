import { type ChildProcess, fork } from 'node:child_process'
import path from 'node:path'
import type { LauncherReply, LauncherRequest, ProgramResult } from './launcher-protocol.ts'

// Starting a program from the service forks the service: with its ~450 MB, many threads and
// large address space, that costs ~8 ms of page-table copying on the event loop for every qpdf
// run. A small long-lived launcher process does the starting instead; the service only sends it
// a message. The launcher is started on first use and again if it ever dies.

export type { ProgramResult } from './launcher-protocol.ts'

export interface RunProgramOptions {
  cwd?: string
  signal?: AbortSignal
  /** ends the program with SIGTERM after this long (`timedOut` in the result) */
  timeoutMs?: number
  /** most bytes of stdout or stderr kept; more ends the program */
  maxBuffer?: number
}

interface Pending {
  resolve(result: ProgramResult): void
  reject(err: unknown): void
  /** set when the caller aborted: the program's end then rejects with this reason */
  aborted?: { reason: unknown }
}

const CHILD = path.join(import.meta.dirname, 'launcher-child.ts')

class ProgramLauncher {
  readonly #child: ChildProcess
  readonly #pending = new Map<number, Pending>()
  #nextId = 1
  #gone = false

  constructor(onGone: () => void) {
    this.#child = fork(CHILD, [], {
      execArgv: ['--max-old-space-size=64'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // a process group of its own, which the programs it starts join: if it is ever killed
      // outright, the group is ended with it (see 'exit' below)
      detached: true,
    })
    this.#child.on('message', (reply: LauncherReply) => this.#settle(reply))
    const gone = (reason: string) => {
      if (this.#gone) return
      this.#gone = true
      onGone()
      for (const pending of this.#pending.values())
        pending.reject(new Error(`the program launcher ${reason}`))
      this.#pending.clear()
    }
    this.#child.on('exit', () => {
      // programs it started would run on without their time limit, their output unread
      killGroup(this.#child.pid)
      gone('stopped')
    })
    // it could not be started, or its channel broke (a send after it died): never a crash here
    this.#child.on('error', (err) => {
      gone(`failed: ${err.message}`)
      this.#child.kill('SIGKILL')
    })
    this.#idle()
  }

  run(file: string, args: string[], options: RunProgramOptions): Promise<ProgramResult> {
    const { signal } = options
    if (signal?.aborted) return Promise.reject(signal.reason)
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      // the program is killed and the promise rejects once it has ended, so the caller may
      // remove its files without the program still writing there
      const onAbort = () => {
        const pending = this.#pending.get(id)
        if (!pending) return
        pending.aborted = { reason: signal?.reason }
        this.#send({ type: 'kill', id })
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const done = () => signal?.removeEventListener('abort', onAbort)
      this.#pending.set(id, {
        resolve: (result) => {
          done()
          resolve(result)
        },
        reject: (err) => {
          done()
          reject(err)
        },
      })
      this.#busy()
      this.#send({
        type: 'run',
        id,
        file,
        args,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.maxBuffer !== undefined ? { maxBuffer: options.maxBuffer } : {}),
      })
    })
  }

  #send(message: LauncherRequest): void {
    if (this.#gone) {
      // a request sent after it died settles at once: the caller is not left waiting
      const pending = this.#pending.get(message.id)
      this.#forget(message.id)
      pending?.reject(new Error('the program launcher stopped'))
      return
    }
    this.#child.send(message)
  }

  #settle(reply: LauncherReply): void {
    const pending = this.#pending.get(reply.id)
    if (!pending) return
    this.#forget(reply.id)
    if (pending.aborted) pending.reject(pending.aborted.reason)
    else if (reply.ok) pending.resolve(reply.result)
    else pending.reject(Object.assign(new Error(reply.message), { code: reply.code }))
  }

  #forget(id: number): void {
    this.#pending.delete(id)
    if (this.#pending.size === 0) this.#idle()
  }

  // an idle launcher does not keep the service's process alive; a running program does
  #busy(): void {
    this.#child.ref()
    this.#child.channel?.ref()
  }

  #idle(): void {
    this.#child.unref()
    this.#child.channel?.unref()
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: nothing of the group is left
  }
}

let launcher: ProgramLauncher | undefined

/**
 * Runs a program to its end and resolves with its exit code and output, also for a non-zero exit
 * (callers map codes to problems). Rejects when it cannot be started (`code: 'ENOENT'` when it
 * is not installed) and with the signal's reason when aborted (the program is killed).
 */
export function runProgram(
  file: string,
  args: string[],
  options: RunProgramOptions = {},
): Promise<ProgramResult> {
  if (!launcher) {
    const started: ProgramLauncher = new ProgramLauncher(() => {
      if (launcher === started) launcher = undefined
    })
    launcher = started
  }
  return launcher.run(file, args, options)
}
