import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { putLocalFiles } from '../files/put-local-files.ts'
import { readStoredFile, readStoredFiles, readStream } from '../files/read-stored-file.ts'
import type { FileStore } from '../sdk/file-contracts.ts'

/**
 * The behaviour every FileStore shares (DESIGN.md §9: one contract suite per extension point).
 * `store()` is called inside each test, after the caller's beforeAll has set it up.
 */
export function runFileStoreContract(name: string, store: () => FileStore): void {
  describe(`${name} as a FileStore`, () => {
    const key = (label: string) => `ws_contract/rnd_${randomBytes(6).toString('hex')}/file_${label}`

    it('gives back the exact bytes and size it was given', async () => {
      const bytes = Buffer.concat([
        Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        randomBytes(1_500_000),
      ])
      const k = key('a.pdf')
      await store().put(k, bytes, 'application/pdf')
      const got = await store().get(k)
      expect(got?.size).toBe(bytes.length)
      expect((await readStream(got!.stream)).equals(bytes)).toBe(true)
    })

    it('keeps an empty object', async () => {
      const k = key('empty.txt')
      await store().put(k, Buffer.alloc(0), 'text/plain')
      const got = await store().get(k)
      expect(got?.size).toBe(0)
      expect((await readStream(got!.stream)).length).toBe(0)
    })

    it('replaces an object put again under the same key', async () => {
      const k = key('b.png')
      await store().put(k, Buffer.from('first version, longer'), 'image/png')
      await store().put(k, Buffer.from('second'), 'image/png')
      const got = await store().get(k)
      expect((await readStream(got!.stream)).toString()).toBe('second')
      expect(got?.size).toBe(6)
    })

    it('stores a stream of known length, byte for byte', async () => {
      const bytes = randomBytes(2_000_000)
      const k = key('streamed.pdf')
      await store().putStream(
        k,
        Readable.from([bytes.subarray(0, 700_000), bytes.subarray(700_000)]),
        bytes.length,
        'application/pdf',
      )
      const got = await store().get(k)
      expect(got?.size).toBe(bytes.length)
      expect((await readStream(got!.stream)).equals(bytes)).toBe(true)
    })

    it('answers undefined for a key it never had', async () => {
      expect(await store().get(key('never.pdf'))).toBeUndefined()
      expect(await readStoredFile(store(), key('never.pdf'))).toBeUndefined()
    })

    it('reads an object whole (by its own read where it has one), the same bytes as get', async () => {
      const bytes = randomBytes(200_000)
      const k = key('whole.pdf')
      await store().put(k, bytes, 'application/pdf')
      expect((await readStoredFile(store(), k))?.equals(bytes)).toBe(true)
      await store().delete(k)
      expect(await readStoredFile(store(), k)).toBeUndefined()
    })

    it('takes in files from local disk (by its own putFiles where it has one): same bytes, sources gone', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'docsvc-contract-'))
      try {
        const parts = Array.from({ length: 12 }, (_, i) => ({
          key: key(`part-${i}.pdf`),
          path: path.join(dir, `part-${i}.pdf`),
          contentType: 'application/pdf',
          bytes: randomBytes(1000 + i),
        }))
        for (const p of parts) await writeFile(p.path, p.bytes)
        await putLocalFiles(store(), parts)
        for (const p of parts) {
          expect((await readStoredFile(store(), p.key))?.equals(p.bytes)).toBe(true)
          expect(existsSync(p.path)).toBe(false)
        }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    })

    it('reads several objects whole (by its own readMany where it has one), in order, undefined when missing', async () => {
      const bytes = [randomBytes(5000), randomBytes(10), Buffer.alloc(0)]
      const keys = bytes.map((_, i) => key(`many-${i}.pdf`))
      for (const [i, k] of keys.entries()) await store().put(k, bytes[i]!, 'application/pdf')
      const got = await readStoredFiles(store(), [keys[0]!, key('never.pdf'), keys[1]!, keys[2]!])
      expect(got.map((b) => b?.toString('hex'))).toEqual([
        bytes[0]!.toString('hex'),
        undefined,
        bytes[1]!.toString('hex'),
        '',
      ])
    })

    it('deletes an object, and deleting a missing one is no error', async () => {
      const k = key('c.webp')
      await store().put(k, Buffer.from('x'), 'image/webp')
      await store().delete(k)
      expect(await store().get(k)).toBeUndefined()
      await store().delete(k)
      await store().delete(key('never.webp'))
    })
  })
}
