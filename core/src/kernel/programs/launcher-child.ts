// The program launcher's own process: small, so starting a program here costs a fork of a
// ~40 MB process instead of the service's (see program-launcher.ts). It only starts programs.
import { execFile } from 'node:child_process'
import type { LauncherReply, LauncherRequest, RunMessage } from './launcher-protocol.ts'

const running = new Map<number, AbortController>()

function reply(message: LauncherReply): void {
  process.send?.(message)
}

function run(message: RunMessage): void {
  const abort = new AbortController()
  running.set(message.id, abort)
  execFile(
    message.file,
    message.args,
    {
      cwd: message.cwd,
      timeout: message.timeoutMs ?? 0,
      maxBuffer: message.maxBuffer ?? 1024 * 1024,
      encoding: 'utf8',
      signal: abort.signal,
    },
    (err, stdout, stderr) => {
      running.delete(message.id)
      // killed on request: the reply only says it has ended (the caller rejects with its reason)
      const e = err as
        | (NodeJS.ErrnoException & { code?: number | string; killed?: boolean; signal?: string })
        | null
      if (e && typeof e.code === 'string') {
        reply({ id: message.id, ok: false, code: e.code, message: e.message })
        return
      }
      const exitCode = e ? (typeof e.code === 'number' ? e.code : null) : 0
      const signal = e?.signal ?? null
      reply({
        id: message.id,
        ok: true,
        result: { exitCode, signal, stdout, stderr, timedOut: Boolean(e?.killed) && signal !== null },
      })
    },
  )
}

process.on('message', (message: LauncherRequest) => {
  if (message.type === 'run') run(message)
  else running.get(message.id)?.abort()
})
// the service went away: nothing started here may outlive it
process.on('disconnect', () => {
  for (const abort of running.values()) abort.abort()
  process.exit(0)
})
