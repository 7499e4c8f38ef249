import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ensureDataDir } from './data-dir.ts'

describe('ensureDataDir', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'docsvc-datadir-'))
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('makes a new data dir that only the service user can enter', () => {
    const dir = path.join(parent, 'fresh', 'data')
    ensureDataDir(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
  })

  it('leaves an existing one as the operator made it', () => {
    const dir = path.join(parent, 'existing')
    mkdirSync(dir, { mode: 0o750 })
    ensureDataDir(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o750)
  })
})
