import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runFileStoreContract } from '../testing/file-store-contract.ts'
import { LocalFileStore, renamedInto } from './local-file-store.ts'

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
}

describe('LocalFileStore contract', () => {
  let dir: string
  let store: LocalFileStore
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'docsvc-files-'))
    store = new LocalFileStore(path.join(dir, 'files'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  runFileStoreContract('LocalFileStore', () => store)
})

describe('LocalFileStore', () => {
  let dataDir: string
  let store: LocalFileStore
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-files-'))
    store = new LocalFileStore(path.join(dataDir, 'files'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  const key = 'ws_abc/rnd_def/file_ghi.pdf'

  it('stores bytes under the data dir and reads them back with their size', async () => {
    const bytes = Buffer.from('%PDF-1.7 hello \u00e9')
    await store.put(key, bytes, 'application/pdf')
    expect(statSync(path.join(dataDir, 'files', key)).size).toBe(bytes.length)
    const got = await store.get(key)
    expect(got?.size).toBe(bytes.length)
    expect(await bytesOf(got!.stream)).toEqual(bytes)
  })

  it('replaces an object whole and leaves no temp file behind', async () => {
    await store.put(key, Buffer.alloc(100_000, 1), 'application/pdf')
    await store.put(key, Buffer.from('short'), 'application/pdf')
    const got = await store.get(key)
    expect((await bytesOf(got!.stream)).toString()).toBe('short')
    expect(filesUnder(path.join(dataDir, 'files'))).toEqual([key])
  })

  it('keeps serving an opened file that is deleted meanwhile', async () => {
    await store.put(key, Buffer.from('still here'), 'text/plain')
    const got = await store.get(key)
    await store.delete(key)
    expect((await bytesOf(got!.stream)).toString()).toBe('still here')
  })

  it('answers undefined for a missing object, and for a folder', async () => {
    expect(await store.get('ws_x/rnd_y/file_none.pdf')).toBeUndefined()
    await store.put(key, Buffer.from('x'), 'application/pdf')
    expect(await store.get('ws_abc/rnd_def')).toBeUndefined()
    expect(await store.get(`${key}/below-a-file`)).toBeUndefined()
  })

  it('deletes an object, tolerates deleting it twice and prunes the emptied folders', async () => {
    await store.put(key, Buffer.from('x'), 'application/pdf')
    await store.put('ws_abc/rnd_other/file_1.png', Buffer.from('y'), 'image/png')
    await store.delete(key)
    await store.delete(key)
    expect(await store.get(key)).toBeUndefined()
    const root = path.join(dataDir, 'files')
    expect(readdirSync(path.join(root, 'ws_abc'))).toEqual(['rnd_other'])
    await store.delete('ws_abc/rnd_other/file_1.png')
    // the root itself stays
    expect(readdirSync(root)).toEqual([])
  })

  it('names the file of an object for reading in place, and refuses keys outside its folder', async () => {
    await store.put(key, Buffer.from('%PDF in place'), 'application/pdf')
    expect(readFileSync(store.localPath(key), 'utf8')).toBe('%PDF in place')
    expect(() => store.localPath('../escape.pdf')).toThrow()
  })

  it('makes the folder again when a delete next door pruned it before a file moved in', () => {
    const source = path.join(dataDir, 'part.pdf')
    writeFileSync(source, '%PDF part')
    // as if pruned between the mkdir and the rename: the folder of the target is not there
    const target = path.join(dataDir, 'files', key)
    expect(renamedInto(source, target)).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('%PDF part')
    expect(() => renamedInto(source, target)).toThrow(/ENOENT/)
  })

  // /dev/shm is a tmpfs: a rename from there into the data dir fails with EXDEV
  const otherFileSystem = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev
  it.skipIf(!otherFileSystem)('moves files in from another file system by copying them', async () => {
    const dir = mkdtempSync(path.join('/dev/shm', 'docsvc-files-'))
    try {
      const source = path.join(dir, 'part-1.pdf')
      writeFileSync(source, '%PDF part one')
      await store.putFiles([{ key, path: source, contentType: 'application/pdf' }])
      expect(readFileSync(path.join(dataDir, 'files', key), 'utf8')).toBe('%PDF part one')
      expect(existsSync(source)).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses keys that could leave its folder or reach temp files', async () => {
    for (const bad of [
      '../escape.pdf',
      'ws/../../escape.pdf',
      'ws/./file.pdf',
      '/etc/passwd',
      'ws//file.pdf',
      'ws/file.pdf/',
      '',
      '.secret',
      'ws/.file.pdf.abc.tmp',
      'ws\\..\\file.pdf',
      'ws/fi le.pdf',
      'ws/file\u0000.pdf',
      `${'a'.repeat(1025)}`,
    ]) {
      await expect(store.put(bad, Buffer.from('x'), 'text/plain'), bad).rejects.toThrow(/invalid file key/)
      await expect(store.get(bad), bad).rejects.toThrow(/invalid file key/)
      await expect(store.delete(bad), bad).rejects.toThrow(/invalid file key/)
    }
    expect(readdirSync(dataDir)).toEqual([])
  })
})
