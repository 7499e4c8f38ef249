import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { withWorkDir } from './qpdf.ts'

describe("a tool run's work folder", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'docsvc-scratch-'))
  const ctx = { scratchDir: async () => scratch }
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('is a fresh folder inside the render scratch folder, left for the kernel to remove', async () => {
    const [a, b] = await Promise.all([
      withWorkDir(ctx, async (work) => work.root),
      withWorkDir(ctx, async (work) => work.root),
    ])
    expect(path.dirname(a)).toBe(scratch)
    expect(a).not.toBe(b)
    expect(statSync(a).isDirectory()).toBe(true)
  })

  it('links a source the kernel keeps on disk instead of writing its bytes', async () => {
    const stored = path.join(scratch, 'stored.pdf')
    writeFileSync(stored, '%PDF-1.7 stored')
    await withWorkDir(ctx, async (work) => {
      const name = await work.place('in-1.pdf', { bytes: Buffer.from('%PDF-1.7 stored'), path: stored })
      expect(statSync(work.pathOf(name)).ino).toBe(statSync(stored).ino)
      // the link keeps the bytes when the store deletes its name meanwhile
      rmSync(stored)
      expect(readFileSync(work.pathOf(name), 'utf8')).toBe('%PDF-1.7 stored')
    })
  })

  it('writes the bytes when the file is gone or there is none', async () => {
    await withWorkDir(ctx, async (work) => {
      const gone = await work.place('in-1.pdf', {
        bytes: Buffer.from('%PDF gone'),
        path: '/nonexistent/x.pdf',
      })
      const none = await work.place('in-2.pdf', { bytes: Buffer.from('%PDF none') })
      expect(readFileSync(work.pathOf(gone), 'utf8')).toBe('%PDF gone')
      expect(readFileSync(work.pathOf(none), 'utf8')).toBe('%PDF none')
    })
  })
})
