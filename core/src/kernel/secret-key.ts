import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from './config.ts'
import { ConfigError } from './config-loader.ts'

export const SECRET_KEY_FILE = 'secret.key'
export const MIN_SECRET_KEY_LENGTH = 32

const HOW_TO = 'e.g. the output of `openssl rand -base64 32`'

/**
 * The installation's secret: signs file URLs and encrypts credentials at rest. DOCSVC_SECRET_KEY
 * wins. Embedded mode without one generates a key once and keeps it in the data dir, so a restart
 * keeps issued URLs valid; cluster mode needs it set, or each pod would sign with its own key.
 */
export function resolveSecretKey(config: Pick<Config, 'secretKey' | 'mode' | 'dataDir'>): string {
  if (config.secretKey) {
    if (config.secretKey.length < MIN_SECRET_KEY_LENGTH) {
      throw new ConfigError([
        `DOCSVC_SECRET_KEY: must be at least ${MIN_SECRET_KEY_LENGTH} characters (${HOW_TO})`,
      ])
    }
    return config.secretKey
  }
  if (config.mode === 'cluster') {
    throw new ConfigError([
      `DOCSVC_SECRET_KEY: required in cluster mode, the same value on every pod (${HOW_TO})`,
    ])
  }
  return readOrCreateKeyFile(path.join(config.dataDir, SECRET_KEY_FILE))
}

function readOrCreateKeyFile(file: string): string {
  const existing = readKeyFile(file)
  if (existing !== undefined) return existing
  mkdirSync(path.dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(temp, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' })
  try {
    // link() fails if the file exists: of two processes starting at once, one key wins, whole
    linkSync(temp, file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(temp, { force: true })
  }
  const key = readKeyFile(file)
  if (key === undefined) throw new Error(`${file} vanished while it was being created`)
  return key
}

function readKeyFile(file: string): string | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  const key = text.trim()
  if (key.length < MIN_SECRET_KEY_LENGTH) {
    throw new ConfigError([
      `${file}: holds no valid secret key (at least ${MIN_SECRET_KEY_LENGTH} characters); delete it to generate a new one, or set DOCSVC_SECRET_KEY`,
    ])
  }
  return key
}
