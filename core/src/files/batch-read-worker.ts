// The thread behind batch-read.ts: reads each file of a batch synchronously (off the service's
// event loop) and sends them all back in one transferred buffer.
import { readFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import type { BatchReply, BatchRequest } from './batch-read-protocol.ts'

const GONE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR'])

parentPort?.on('message', ({ id, paths }: BatchRequest) => {
  const files: (Buffer | undefined)[] = []
  try {
    for (const file of paths) {
      try {
        files.push(readFileSync(file))
      } catch (err) {
        if (!GONE.has((err as NodeJS.ErrnoException).code ?? '')) throw err
        files.push(undefined)
      }
    }
  } catch (err) {
    const { message, code } = err as NodeJS.ErrnoException
    parentPort?.postMessage({ id, ok: false, message, code } satisfies BatchReply)
    return
  }
  // one buffer of its own for all (a small read's Buffer shares a pool that must not move)
  const total = files.reduce((n, f) => n + (f?.length ?? 0), 0)
  const buffer = new ArrayBuffer(total)
  const bytes = new Uint8Array(buffer)
  const lengths: number[] = []
  let offset = 0
  for (const f of files) {
    lengths.push(f ? f.length : -1)
    if (f) bytes.set(f, offset)
    offset += f?.length ?? 0
  }
  parentPort?.postMessage({ id, ok: true, buffer, lengths } satisfies BatchReply, [buffer])
})
