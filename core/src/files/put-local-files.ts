import { readFile, rm } from 'node:fs/promises'
import { mapWithLimit } from '../kernel/map-with-limit.ts'
import type { FileStore, LocalFile } from '../sdk/file-contracts.ts'

const CONCURRENCY = 16

/** Moves files on this worker's disk into a store: by its own `putFiles`, else read and `put`. */
export async function putLocalFiles(store: FileStore, files: readonly LocalFile[]): Promise<void> {
  if (files.length === 0) return
  if (store.putFiles) return store.putFiles(files)
  await mapWithLimit(files, CONCURRENCY, async (file) => {
    await store.put(file.key, await readFile(file.path), file.contentType)
    await rm(file.path, { force: true })
  })
}
