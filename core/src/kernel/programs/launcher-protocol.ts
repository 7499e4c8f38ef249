// The messages between the service and its program launcher (program-launcher.ts).

export interface RunMessage {
  type: 'run'
  id: number
  file: string
  args: string[]
  cwd?: string
  timeoutMs?: number
  maxBuffer?: number
}

export interface KillMessage {
  type: 'kill'
  id: number
}

export type LauncherRequest = RunMessage | KillMessage

export interface ProgramResult {
  /** the exit code; null when the program was ended by a signal */
  exitCode: number | null
  /** the signal that ended it (SIGTERM after a timeout), else null */
  signal: string | null
  stdout: string
  stderr: string
  /** true when the time limit ended it */
  timedOut: boolean
}

export type LauncherReply =
  | { id: number; ok: true; result: ProgramResult }
  /** the program could not be started (e.g. ENOENT: not installed) */
  | { id: number; ok: false; code: string; message: string }
