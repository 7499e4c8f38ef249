import type { Readable } from 'node:stream'

/** Hosted render files: local disk embedded, an S3-compatible bucket in cluster mode. */
export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>
  /** stores a stream of `size` bytes without holding it in memory (uploads) */
  putStream(key: string, stream: Readable, size: number, contentType: string): Promise<void>
  /** undefined when the object does not exist */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>
  /**
   * The whole object in memory, undefined when it does not exist. Optional: without it the
   * kernel reads `get`'s stream; a store that can do better (local disk: one readFile instead of
   * a stream, ~3x faster for the small files a merge reads by the hundred) offers it.
   */
  read?(key: string): Promise<Buffer | undefined>
  /**
   * Several objects whole, in order (undefined for a missing one). Optional: without it the
   * kernel reads them one by one; local disk reads a batch in one go off the event loop.
   */
  readMany?(keys: readonly string[]): Promise<(Buffer | undefined)[]>
  /**
   * Moves files written on this worker's disk into the store under new keys that nothing points
   * at yet (a split's parts), each source file being gone afterwards. Optional: without it the
   * kernel reads each file and `put`s it. Resolves once all are stored durably; when it rejects,
   * any of them may be stored (the caller deletes the keys).
   */
  putFiles?(files: readonly LocalFile[]): Promise<void>
  /**
   * The file an object is on this worker's disk, for reading in place; optional, and undefined
   * when the store keeps the object elsewhere. Nothing may write to it.
   */
  localPath?(key: string): string | undefined
  delete(key: string): Promise<void>
}

/** A file on this worker's disk, to be stored under `key`. */
export interface LocalFile {
  key: string
  path: string
  contentType: string
}

/**
 * What a hosted-file provider registers under the `fileStores` extension point. Its own plugin
 * config says whether it is set up; the kernel uses the configured one, else local disk.
 */
export interface FileStoreFactory {
  readonly id: string
  /** true when its config names a place to store files (e.g. a bucket) */
  readonly configured: boolean
  create(): FileStore
}
