import { mkdirSync } from 'node:fs'

/**
 * The data dir holds the database, hosted files and the secret key: a new one is made readable
 * by the service's user only (0700), so a process running as another user (Chromium, started
 * as an unprivileged uid when the service is root) cannot read it. An existing one is left as
 * the operator made it.
 */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
}
