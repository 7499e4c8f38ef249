import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runProgram } from './program-launcher.ts'

describe('runProgram (through the launcher process)', () => {
  it('answers the exit code and the output of a program', async () => {
    const ok = await runProgram('sh', ['-c', 'echo out; echo err >&2; exit 0'])
    expect(ok).toEqual({ exitCode: 0, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false })
    const failed = await runProgram('sh', ['-c', 'echo nope >&2; exit 3'])
    expect(failed.exitCode).toBe(3)
    expect(failed.stderr).toBe('nope\n')
  })

  it('runs in the given folder and passes arguments as they are', async () => {
    const result = await runProgram('sh', ['-c', 'pwd; printf "%s|" "$@"', 'sh', '-x', 'a b', '$HOME'], {
      cwd: '/tmp',
    })
    expect(result.stdout).toBe('/tmp\n-x|a b|$HOME|')
  })

  it('rejects with ENOENT for a program that is not installed', async () => {
    await expect(runProgram('no-such-program-docsvc', [])).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('ends a program that runs past its time limit', async () => {
    const started = Date.now()
    const result = await runProgram('sleep', ['5'], { timeoutMs: 100 })
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' })
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('kills the program when the caller aborts, and rejects with the reason', async () => {
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'launcher-')), 'ran-on')
    const abort = new AbortController()
    const run = runProgram('sh', ['-c', `sleep 0.4; touch ${marker}`], { signal: abort.signal })
    setTimeout(() => abort.abort(new Error('caller gave up')), 100)
    await expect(run).rejects.toThrow('caller gave up')
    await new Promise((r) => setTimeout(r, 700))
    expect(existsSync(marker)).toBe(false)
    await expect(runProgram('true', [], { signal: abort.signal })).rejects.toThrow('caller gave up')
  })

  it('runs many programs side by side', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runProgram('sh', ['-c', `echo ${i}`])),
    )
    expect(results.map((r) => r.stdout.trim())).toEqual(Array.from({ length: 20 }, (_, i) => String(i)))
  })

  it('starts a new launcher when the old one died', async () => {
    const pid = Number((await runProgram('sh', ['-c', 'echo $PPID'])).stdout)
    const inFlight = runProgram('sleep', ['5'])
    await new Promise((r) => setTimeout(r, 100))
    process.kill(pid, 'SIGKILL')
    // the request in flight when it died fails at once; the next one starts a new launcher
    await expect(inFlight).rejects.toThrow('the program launcher stopped')
    const again = await runProgram('sh', ['-c', 'echo $PPID'])
    expect(Number(again.stdout)).not.toBe(pid)
    expect(again.exitCode).toBe(0)
  })

  it('ends the programs a launcher started when it is killed outright', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launcher-'))
    const [pidFile, marker] = [path.join(dir, 'launcher-pid'), path.join(dir, 'ran-on')]
    // the shell writes its parent's pid (the launcher's), then would go on for a second
    const inFlight = runProgram('sh', ['-c', `echo $PPID > ${pidFile}; sleep 1; touch ${marker}`])
    inFlight.catch(() => {})
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') {
      await new Promise((r) => setTimeout(r, 10))
    }
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL')
    await expect(inFlight).rejects.toThrow('the program launcher stopped')
    await new Promise((r) => setTimeout(r, 1500))
    expect(existsSync(marker)).toBe(false)
  })
})
