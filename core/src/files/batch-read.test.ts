import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readFilesWhole } from './batch-read.ts'

describe('readFilesWhole', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-batch-read-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, bytes: Buffer) => {
    writeFileSync(path.join(dir, name), bytes)
    return path.join(dir, name)
  }

  it('gives each file whole, in order, with undefined for one that is missing or a folder', async () => {
    const small = randomBytes(300)
    const big = randomBytes(3_000_000)
    mkdirSync(path.join(dir, 'folder'))
    const paths = [
      file('a.pdf', small),
      path.join(dir, 'missing.pdf'),
      file('empty.pdf', Buffer.alloc(0)),
      path.join(dir, 'folder'),
      file('big.pdf', big),
    ]
    const [a, missing, empty, folder, got] = await readFilesWhole(paths)
    expect(a?.equals(small)).toBe(true)
    expect(missing).toBeUndefined()
    expect(empty?.length).toBe(0)
    expect(folder).toBeUndefined()
    expect(got?.equals(big)).toBe(true)
  })

  it('keeps batches that run side by side apart', async () => {
    const names = Array.from({ length: 40 }, (_, i) => file(`side-${i}.pdf`, Buffer.from(`file ${i}`)))
    const [first, second] = await Promise.all([
      readFilesWhole(names.slice(0, 20)),
      readFilesWhole(names.slice(20)),
    ])
    expect([...first, ...second].map((b) => b?.toString())).toEqual(names.map((_, i) => `file ${i}`))
  })

  it('rejects a batch with a file it cannot read for another reason, and goes on serving', async () => {
    const tooLong = path.join(dir, 'x'.repeat(300))
    await expect(readFilesWhole([tooLong])).rejects.toMatchObject({ code: 'ENAMETOOLONG' })
    expect((await readFilesWhole([file('after.pdf', Buffer.from('after'))]))[0]?.toString()).toBe('after')
  })

  it('answers an empty batch at once', async () => {
    expect(await readFilesWhole([])).toEqual([])
  })
})
