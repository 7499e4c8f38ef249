import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createKernel } from './composition/create-kernel.ts'
import { loadConfig } from './kernel/config.ts'
import { ConfigError } from './kernel/config-loader.ts'
import { createLogger } from './kernel/logger.ts'

describe('a queue backend or file store no loaded plugin provides', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-choices-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('stops start with both problems, before the database is opened', async () => {
    const env = { DOCSVC_DATA_DIR: dataDir, DOCSVC_QUEUE_BACKEND: 'redis', DOCSVC_FILE_STORE: 'gcs' }
    const config = loadConfig(env)
    const started = createKernel({ config, env, logger: createLogger('silent') })
    await expect(started).rejects.toBeInstanceOf(ConfigError)
    await expect(started).rejects.toMatchObject({
      problems: [
        'DOCSVC_QUEUE_BACKEND: no loaded plugin provides the queue backend "redis" (loaded: pgboss, sqlite; or auto)',
        'DOCSVC_FILE_STORE: no loaded plugin provides the file store "gcs" (loaded: local, s3; or auto)',
      ],
    })
    expect(existsSync(config.sqlitePath)).toBe(false)
  })
})
