import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError } from './config-loader.ts'
import { MIN_SECRET_KEY_LENGTH, resolveSecretKey, SECRET_KEY_FILE } from './secret-key.ts'

const run = promisify(execFile)

describe('resolveSecretKey', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-secret-'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  const embedded = (secretKey = '') => ({ secretKey, mode: 'embedded' as const, dataDir })

  it('uses DOCSVC_SECRET_KEY when it is set, in either mode, and writes no file', () => {
    const key = 'k'.repeat(MIN_SECRET_KEY_LENGTH)
    expect(resolveSecretKey(embedded(key))).toBe(key)
    expect(resolveSecretKey({ secretKey: key, mode: 'cluster', dataDir })).toBe(key)
    expect(() => statSync(path.join(dataDir, SECRET_KEY_FILE))).toThrow()
  })

  it('refuses a configured key shorter than 32 characters, naming the variable', () => {
    const attempt = () => resolveSecretKey(embedded('too-short'))
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/DOCSVC_SECRET_KEY: must be at least 32 characters/)
  })

  it('refuses cluster mode without a key, naming DOCSVC_SECRET_KEY', () => {
    const attempt = () => resolveSecretKey({ secretKey: '', mode: 'cluster', dataDir })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/DOCSVC_SECRET_KEY: required in cluster mode/)
  })

  it('generates a key once in embedded mode, keeps it in a 0600 file and returns it after a restart', () => {
    const first = resolveSecretKey(embedded())
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const file = path.join(dataDir, SECRET_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8').trim()).toBe(first)
    expect(resolveSecretKey(embedded())).toBe(first)
  })

  it('creates the data dir when it does not exist yet', () => {
    const nested = path.join(dataDir, 'a', 'b')
    const key = resolveSecretKey({ secretKey: '', mode: 'embedded', dataDir: nested })
    expect(readFileSync(path.join(nested, SECRET_KEY_FILE), 'utf8').trim()).toBe(key)
  })

  it('refuses a key file that holds no usable key instead of replacing it', () => {
    writeFileSync(path.join(dataDir, SECRET_KEY_FILE), 'short\n')
    expect(() => resolveSecretKey(embedded())).toThrow(/holds no valid secret key/)
  })

  it('gives processes that start at once the same key', async () => {
    const module = path.join(path.dirname(fileURLToPath(import.meta.url)), 'secret-key.ts')
    const script = `import { resolveSecretKey } from ${JSON.stringify(module)}
process.stdout.write(resolveSecretKey({ secretKey: '', mode: 'embedded', dataDir: ${JSON.stringify(dataDir)} }))`
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--input-type=module', '-e', script])),
    )
    const keys = new Set(outputs.map((o) => o.stdout))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toBe(resolveSecretKey(embedded()))
  })
})
