import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface ShellResult {
  exitCode: number | null
  stdout: string
  stderr: string
}

export interface HttpAnswer {
  status: number
  /** lower-case names */
  headers: Record<string, string>
  body: string
}

/**
 * Runs documented commands exactly as printed, in bash, in a scratch directory (where `-o` files
 * land). curl reads the scratch directory's .curlrc, which dumps the answer's headers to a file:
 * the test learns the status and headers without adding a flag to the printed command.
 */
export class ExampleShell {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'docsvc-examples-'))
  private readonly headerFile = path.join(this.dir, '.answer-headers')

  private readonly env: Record<string, string>

  constructor(env: Record<string, string> = {}) {
    this.env = env
    writeFileSync(path.join(this.dir, '.curlrc'), `dump-header = "${this.headerFile}"\n`)
  }

  /** `cwd` defaults to the scratch directory */
  run(
    command: string,
    extraEnv: Record<string, string> = {},
    { cwd = this.dir, timeoutMs = 60_000 }: { cwd?: string; timeoutMs?: number } = {},
  ): Promise<ShellResult> {
    rmSync(this.headerFile, { force: true })
    // the caller's DOCSVC_* variables stay out: each test states the config it means
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('DOCSVC_')),
    )
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', command], {
        cwd,
        env: { ...inherited, NO_COLOR: '1', CURL_HOME: this.dir, ...this.env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      child.on('error', reject)
      child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }))
    })
  }

  /** Runs a curl command and reads the answer it got (the last one, after any redirect). */
  async curl(command: string, extraEnv: Record<string, string> = {}): Promise<HttpAnswer & ShellResult> {
    const result = await this.run(command, extraEnv)
    if (!existsSync(this.headerFile))
      throw new Error(`no HTTP answer (exit ${result.exitCode}): ${result.stderr.trim()}\n${command}`)
    const blocks = readFileSync(this.headerFile, 'latin1')
      .trim()
      .split(/\r?\n\r?\n/)
    const [statusLine = '', ...lines] = (blocks.at(-1) as string).split(/\r?\n/)
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    return { ...result, status: Number(statusLine.split(' ')[1]), headers, body: result.stdout }
  }

  file(name: string): Buffer {
    return readFileSync(path.join(this.dir, name))
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}
