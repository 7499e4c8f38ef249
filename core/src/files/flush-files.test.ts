import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { flushFiles, SYNCFS_FROM } from './flush-files.ts'

// Whether bytes reached the disk cannot be seen from here; what can: both ways run, and a file
// that cannot be flushed is reported instead of passing silently.

describe('flushFiles', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-flush-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const files = (count: number, label: string) =>
    Array.from({ length: count }, (_, i) => {
      const file = path.join(dir, `${label}-${i}`)
      writeFileSync(file, `part ${i}`)
      return file
    })

  it('flushes a few files one by one, and many by one flush of their file system', async () => {
    await flushFiles(files(2, 'few'), dir)
    await flushFiles(files(SYNCFS_FROM + 4, 'many'), dir)
  })

  it('reports a file it cannot flush', async () => {
    const missing = path.join(dir, 'never-written')
    await expect(flushFiles([...files(1, 'one'), missing], dir)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('flushes file by file when the file system flush cannot run', async () => {
    // sync -f fails on a root that does not exist; each file is then flushed, the missing one fails
    const gone = path.join(dir, 'no-such-root')
    const some = files(SYNCFS_FROM, 'fallback')
    await flushFiles(some, gone)
    await expect(flushFiles([...some, path.join(gone, 'x')], gone)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
