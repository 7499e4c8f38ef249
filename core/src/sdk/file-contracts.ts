import type { Readable } from 'node:stream'

/** Hosted render files: local disk embedded, an S3-compatible bucket in cluster mode. */
export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>
  /** undefined when the object does not exist */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>
  delete(key: string): Promise<void>
}
