import { randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs'
import { copyFile, mkdir, open, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FileStore, LocalFile } from '../sdk/file-contracts.ts'
import { readFilesWhole } from './batch-read.ts'
import { assertFileKey } from './file-key.ts'
import { flushFiles } from './flush-files.ts'

const GONE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR'])
// A rename takes microseconds; through the thread pool it takes ~20 us of the event loop and
// more of waiting, 4x slower for a split's 200 parts (~1.5 ms in all when made here).

/** Renames a file in; false when it lies on another file system (then it is copied). */
export function renamedInto(from: string, to: string): boolean {
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(from, to)
      return true
    } catch (err) {
      const { code } = err as NodeJS.ErrnoException
      if (code === 'EXDEV') return false
      // a delete next door may prune the folder between mkdir and rename: make it again
      if (code !== 'ENOENT' || attempt >= 3 || !existsSync(from)) throw err
      mkdirSync(path.dirname(to), { recursive: true })
    }
  }
}

async function copyAcross(from: string, to: string): Promise<void> {
  await copyFile(from, to)
  await rm(from, { force: true })
}

/** Hosted files on local disk (embedded mode): `<root>/<key>`, root being `${dataDir}/files`. */
export class LocalFileStore implements FileStore {
  readonly root: string

  constructor(root: string) {
    this.root = path.resolve(root)
  }

  /** The file a key maps to; throws for keys that could leave the root. */
  pathOf(key: string): string {
    assertFileKey(key)
    const file = path.join(this.root, key)
    // belt and braces: the key rules already keep it inside
    if (!file.startsWith(this.root + path.sep)) throw new Error(`file key escapes the store: ${key}`)
    return file
  }

  async put(key: string, bytes: Buffer, _contentType: string): Promise<void> {
    await this.#writeAtomically(key, (temp) => writeFile(temp, bytes, { flag: 'wx', flush: true }), true)
  }

  async putStream(key: string, stream: Readable, _size: number, _contentType: string): Promise<void> {
    // a stream can be read once, so a vanished folder is not retried
    await this.#writeAtomically(
      key,
      (temp) => pipeline(stream, createWriteStream(temp, { flags: 'wx', flush: true })),
      false,
    )
  }

  async putFiles(files: readonly LocalFile[]): Promise<void> {
    const targets = files.map((f) => this.pathOf(f.key))
    for (const dir of new Set(targets.map((t) => path.dirname(t)))) mkdirSync(dir, { recursive: true })
    // a rename moves a whole file in at once: no temp name needed, and no bytes are copied.
    // All happen before the first await, so the flush is under way when the caller goes on.
    const elsewhere = targets.flatMap((target, i) => (renamedInto(files[i]!.path, target) ? [] : [i]))
    for (const i of elsewhere) await copyAcross(files[i]!.path, targets[i]!)
    await flushFiles(targets, this.root)
  }

  // readers see the old file or the whole new one, never a half-written one
  async #writeAtomically(key: string, write: (temp: string) => Promise<void>, retry: boolean): Promise<void> {
    const file = this.pathOf(key)
    const temp = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
    )
    for (let attempt = 1; ; attempt++) {
      await mkdir(path.dirname(file), { recursive: true })
      try {
        await write(temp)
        break
      } catch (err) {
        await rm(temp, { force: true })
        // a delete next door may prune the folder between mkdir and write: make it again
        if (!retry || (err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err
      }
    }
    try {
      await rename(temp, file)
    } catch (err) {
      await rm(temp, { force: true })
      throw err
    }
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.pathOf(key)
    let handle: Awaited<ReturnType<typeof open>>
    try {
      handle = await open(file, 'r')
    } catch (err) {
      if (GONE.has((err as NodeJS.ErrnoException).code ?? '')) return undefined
      throw err
    }
    try {
      const stat = await handle.stat()
      if (!stat.isFile()) {
        await handle.close()
        return undefined
      }
      // the open handle keeps serving the bytes even if the file is deleted meanwhile
      return { stream: handle.createReadStream(), size: stat.size }
    } catch (err) {
      await handle.close()
      throw err
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key))
    } catch (err) {
      // a folder where a file was asked for is no object either, as get() says
      if (GONE.has((err as NodeJS.ErrnoException).code ?? '')) return undefined
      throw err
    }
  }

  readMany(keys: readonly string[]): Promise<(Buffer | undefined)[]> {
    return readFilesWhole(keys.map((key) => this.pathOf(key)))
  }

  localPath(key: string): string {
    return this.pathOf(key)
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key)
    await rm(file, { force: true })
    await this.#pruneEmptyDirs(path.dirname(file))
  }

  // a purged render leaves no empty ws_/rnd_ folders behind
  async #pruneEmptyDirs(dir: string): Promise<void> {
    for (let current = dir; current.startsWith(this.root + path.sep); current = path.dirname(current)) {
      try {
        await rmdir(current)
      } catch {
        return
      }
    }
  }
}
