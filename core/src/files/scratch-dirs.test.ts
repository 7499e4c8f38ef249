import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ScratchDirs } from './scratch-dirs.ts'

describe('ScratchDirs', () => {
  let dataDir: string
  let scratch: ScratchDirs
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-scratch-'))
    scratch = new ScratchDirs({ config: { dataDir } })
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  it('makes a lease folder under <dataDir>/tmp/work on first use only, the same on every call', async () => {
    const lease = scratch.lease()
    expect(existsSync(scratch.root)).toBe(false)
    const [a, b] = await Promise.all([lease.dir(), lease.dir()])
    expect(a).toBe(b)
    expect(path.dirname(a)).toBe(path.join(dataDir, 'tmp', 'work'))
    expect(await scratch.lease().dir()).not.toBe(a)
  })

  it('removes the folder and what is in it on dispose; an unused lease makes none', async () => {
    const lease = scratch.lease()
    const dir = await lease.dir()
    writeFileSync(path.join(dir, 'part-1.pdf'), 'x')
    await lease.dispose()
    expect(existsSync(dir)).toBe(false)
    await scratch.lease().dispose()
    expect(readdirSync(scratch.root)).toEqual([])
  })

  it('sweeps folders left untouched for a day, and keeps newer ones', async () => {
    const old = path.join(scratch.root, 'render-old')
    const fresh = path.join(scratch.root, 'render-fresh')
    mkdirSync(old, { recursive: true })
    mkdirSync(fresh)
    writeFileSync(path.join(old, 'in-1.pdf'), 'x')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    utimesSync(old, twoDaysAgo, twoDaysAgo)
    expect(await scratch.sweep()).toBe(1)
    expect(readdirSync(scratch.root)).toEqual(['render-fresh'])
  })

  it('sweeps nothing when no render ever made a folder', async () => {
    expect(await scratch.sweep()).toBe(0)
  })
})
