// The messages between batch-read.ts and its worker thread.

export interface BatchRequest {
  id: number
  paths: string[]
}

export type BatchReply =
  /** each file's length in `buffer`, one after the other; -1 for a file that does not exist */
  | { id: number; ok: true; buffer: ArrayBuffer; lengths: number[] }
  | { id: number; ok: false; message: string; code?: string | undefined }
