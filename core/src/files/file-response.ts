import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError } from '../kernel/problem-error.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import { contentDisposition, type FileDisposition } from './content-disposition.ts'

const SCRIPTABLE = /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i

export interface StoredFileResponse {
  key: string
  contentType: string
  filename: string
  disposition: FileDisposition
  /** how long a browser may keep it; 0 for no caching */
  maxAgeSeconds: number
}

/**
 * Streams a hosted file with its headers; shared by the public `/files/:token` route and the
 * `inline=true` form of `GET /v1/renders/{id}/files/{file_id}`. A missing object is 410
 * `file_expired`: its row said it existed, so it was purged or reached its retention.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  store: FileStore,
  file: StoredFileResponse,
): Promise<FastifyReply> {
  const found = await store.get(file.key)
  if (!found)
    throw new ProblemError('file_expired', 'The file was deleted or reached the end of its retention.')
  // objects are immutable under their key (file ids are never reused), so key and size identify the bytes
  const etag = `"${createHash('sha256').update(`${file.key}\n${found.size}`).digest('base64url').slice(0, 32)}"`
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', contentDisposition(file.disposition, file.filename))
    .header('Cache-Control', `private, max-age=${Math.max(0, Math.floor(file.maxAgeSeconds))}`)
    .header('ETag', etag)
    .header('X-Content-Type-Options', 'nosniff')
  // a rendered HTML (or SVG, XML) file opened from this host must not run script with the API's
  // origin; PDFs are left alone, as Chrome's viewer refuses sandboxed documents
  if (SCRIPTABLE.test(file.contentType)) reply.header('Content-Security-Policy', 'sandbox')
  if (matchesEtag(request.headers['if-none-match'], etag)) {
    found.stream.destroy()
    return reply.code(304).send()
  }
  reply.header('Content-Length', String(found.size))
  if (request.method === 'HEAD') {
    found.stream.destroy()
    // an empty stream: Fastify then keeps the Content-Length set above
    return reply.send(Readable.from([]))
  }
  return reply.send(found.stream)
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*')
}
