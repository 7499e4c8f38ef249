import { spawn } from 'node:child_process'

// An external program run with a bound on its output and its life: killed (its whole process
// group: veraPDF's script starts a JVM) when the signal aborts or its output passes the bound.

export interface BoundedRun {
  code: number | null
  stdout: string
  stderr: string
}

export class OutputTooLargeError extends Error {}

export function runBounded(
  command: string,
  args: string[],
  { signal, maxOutputBytes }: { signal: AbortSignal; maxOutputBytes: number },
): Promise<BoundedRun> {
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    // its own process group, so that a kill reaches the JVM its launcher script started
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let size = 0
    let failure: Error | undefined
    const kill = (why: Error) => {
      failure ??= why
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL') // the group is gone already, or was never made
      }
    }
    const onAbort = () => kill(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length
      if (size > maxOutputBytes) kill(new OutputTooLargeError(`more than ${maxOutputBytes} bytes of output`))
      else into.push(chunk)
    }
    child.stdout.on('data', collect(stdout))
    child.stderr.on('data', collect(stderr))
    child.on('error', (err) => {
      signal.removeEventListener('abort', onAbort)
      reject(err)
    })
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort)
      if (failure) reject(failure)
      else
        resolve({
          code,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
        })
    })
  })
}
