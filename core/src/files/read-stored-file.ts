import type { Readable } from 'node:stream'
import { mapWithLimit } from '../kernel/map-with-limit.ts'
import type { FileStore } from '../sdk/file-contracts.ts'

const READ_CONCURRENCY = 16

/** Every byte of a stream, in one buffer. */
export async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return Buffer.concat(chunks)
}

/** A stored object whole, by the store's own `read` where it has one; undefined when missing. */
export async function readStoredFile(store: FileStore, key: string): Promise<Buffer | undefined> {
  if (store.read) return store.read(key)
  const object = await store.get(key)
  return object ? readStream(object.stream) : undefined
}

/** Several stored objects whole, in order: by the store's own `readMany`, else a few at a time. */
export function readStoredFiles(store: FileStore, keys: readonly string[]): Promise<(Buffer | undefined)[]> {
  if (store.readMany) return store.readMany(keys)
  return mapWithLimit(keys, READ_CONCURRENCY, (key) => readStoredFile(store, key))
}
