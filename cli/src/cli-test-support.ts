import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createKernel, type Kernel, loadConfig, migrateToLatest, openDatabase } from '@docsvc/core'
import { createPgSchema, TEST_DATABASE_URL } from '@docsvc/core/testing'

// Helpers for tests that run the real `docsvc` binary, the way an operator does.

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = path.join('cli', 'bin', 'docsvc.js')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** The caller's DOCSVC_* variables stay out: each test states the config it means. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DOCSVC_')))
  return { ...base, NO_COLOR: '1', ...env }
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = start(args, env)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** An API kernel on a command's database, to see what a command's result means to a client. */
export async function withApiKernel<T>(
  env: Record<string, string>,
  fn: (kernel: Kernel) => Promise<T>,
): Promise<T> {
  const kernelEnv = { ...env, DOCSVC_LOG_LEVEL: 'silent' }
  const kernel = await createKernel({ config: loadConfig(kernelEnv), env: kernelEnv, roles: ['api'] })
  try {
    return await fn(kernel)
  } finally {
    await kernel.close()
  }
}

/** Runs a command with --json, expects exit 0 and returns the parsed stdout. */
export async function cliJson<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string>,
): Promise<T> {
  const result = await runCli([...args, '--json'], env)
  if (result.code !== 0) {
    throw new Error(`docsvc ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`)
  }
  return JSON.parse(result.stdout) as T
}

export interface RunningCli {
  child: ChildProcess
  /** everything printed to stdout so far */
  output(): string
  /** resolves with the first match of pattern in stdout */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** SIGTERM, then the exit code (rejects when the process outlives timeoutMs) */
  stop(timeoutMs?: number): Promise<number | null>
}

/** Starts a long-running command (serve, worker) and lets the test read its stdout. */
export function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = start(args, env)
  let stdout = ''
  let stderr = ''
  const waiters = new Set<() => void>()
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
    for (const check of waiters) check()
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    output: () => stdout,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`))
        }, timeoutMs)
        const check = () => {
          const match = stdout.match(pattern)
          if (!match) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve(match)
        }
        waiters.add(check)
        exited.then((code) => {
          if (!waiters.has(check)) return
          waiters.delete(check)
          clearTimeout(timer)
          reject(new Error(`exited ${code} before ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`))
        })
        check()
      })
    },
    async stop(timeoutMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const timeout = new Promise<never>((_, reject) => {
        setTimeout(() => {
          child.kill('SIGKILL')
          reject(new Error(`still running ${timeoutMs} ms after SIGTERM`))
        }, timeoutMs).unref()
      })
      return Promise.race([exited, timeout])
    },
  }
}

export interface CliDatabase {
  /** DOCSVC_* variables that point the CLI at this database */
  env: Record<string, string>
  dataDir: string
  cleanup(): Promise<void>
}

/**
 * A throwaway data dir, and for PostgreSQL a fresh schema the CLI reaches through the URL's
 * `options=-c search_path=...` parameter; migrated unless the test runs `docsvc migrate` itself
 * (admin commands refuse a database that is not there).
 */
export async function cliDatabase(
  dialect: 'sqlite' | 'postgres',
  { migrated = true }: { migrated?: boolean } = {},
): Promise<CliDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-cli-'))
  const schema = dialect === 'postgres' ? await createPgSchema() : undefined
  const env: Record<string, string> = { DOCSVC_DATA_DIR: dataDir, DOCSVC_FIRST_RUN: 'false' }
  if (schema) {
    const url = new URL(TEST_DATABASE_URL)
    url.searchParams.set('options', `-c search_path=${schema.schema}`)
    env.DOCSVC_DATABASE_URL = url.toString()
    // cluster mode signs file URLs with a key every process shares
    env.DOCSVC_SECRET_KEY = 'cli-test-secret-key-0123456789abcdefghij'
  }
  // admin commands refuse a database that is not there: set it up as `docsvc migrate` would
  if (migrated) {
    const db = openDatabase({
      databaseUrl: env.DOCSVC_DATABASE_URL ?? '',
      sqlitePath: path.join(dataDir, 'docsvc.sqlite'),
      ...(schema ? { pgSchema: schema.schema } : {}),
    })
    await migrateToLatest(db).finally(() => db.close())
  }
  return {
    env,
    dataDir,
    async cleanup() {
      await schema?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
