import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from '../kernel/problem-error.ts'
import type { IdempotencyStore, ReplayPointer, StoredResponse } from './idempotency-store.ts'

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
// the original X-Request-Id travels with the replay, so it matches the stored body's request_id;
// a file body's disposition and render id come back with it
const KEPT_HEADERS = ['content-type', 'content-disposition', 'location', 'x-render-id', 'x-request-id']
const claims = new WeakMap<FastifyRequest, { workspaceId: string; key: string }>()
const pointers = new WeakMap<FastifyReply, { replay: ReplayPointer; body: Buffer }>()

/**
 * Called by a route whose answer carries a render's files: the idempotency row keeps `body`
 * (the answer without the bytes) and the pointer, never the bytes themselves.
 */
export function storeAsPointer(reply: FastifyReply, replay: ReplayPointer, body: Buffer): void {
  pointers.set(reply, { replay, body })
}

/** Rebuilds a stored answer from its pointer, for this caller; a ProblemError when it cannot. */
export type ReplayRebuilder = (
  scope: { workspaceId: string },
  stored: StoredResponse & { replay: ReplayPointer },
) => Promise<StoredResponse>

function fingerprint(request: FastifyRequest): string {
  return (
    createHash('sha256')
      .update(`${request.method} ${request.url}\n`)
      // a streamed body (multipart upload) is hashed by its route as it passes; JSON is kept raw
      .update(request.bodyDigest ?? request.rawBody ?? Buffer.alloc(0))
      .digest('hex')
  )
}

declare module 'fastify' {
  interface FastifyRequest {
    /** hash of a body its route streamed (field names and bytes), set before preHandler */
    bodyDigest?: string
  }
}

/** The Idempotency-Key header, or undefined when none was sent; a malformed one is a 400. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key']
  if (header === undefined) return undefined
  const key = Array.isArray(header) ? header[0] : header
  if (key !== undefined && KEY_PATTERN.test(key)) return key
  throw new ProblemError('validation_error', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
    errors: [
      {
        path: '/idempotency-key',
        in: 'header',
        code: 'invalid',
        message: 'must be 1 to 255 visible ASCII characters',
      },
    ],
  })
}

/** Responses a retry with the same key should not get back: the request never really ran. */
function replayable(reply: FastifyReply, payload: unknown): boolean {
  if (reply.statusCode >= 500 || reply.statusCode === 429) return false
  return typeof payload === 'string' || Buffer.isBuffer(payload) || payload === undefined || payload === null
}

async function idempotencyHooks(
  app: FastifyInstance,
  opts: { store: IdempotencyStore; rebuild: ReplayRebuilder },
): Promise<void> {
  const { store, rebuild } = opts

  async function release(request: FastifyRequest, claim: { workspaceId: string; key: string }) {
    try {
      await store.release(claim.workspaceId, claim.key)
    } catch (err) {
      // the claim then expires as stale; the answer to this request must still go out
      request.log.error({ err }, 'could not release an idempotency key')
    }
  }

  // preHandler, not earlier: a request refused by parsing or validation never claims its key
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.auth) return
    const key = idempotencyKeyOf(request)
    if (key === undefined) return
    const workspaceId = request.auth.workspace.id
    // test and live keys of one workspace do not share idempotency keys
    const scopedKey = `${request.auth.test ? 'test' : 'live'}:${key}`
    const start = await store.start(workspaceId, scopedKey, fingerprint(request))
    if (start.kind === 'replay') {
      reply.header('Idempotent-Replayed', 'true')
      const stored = start.response
      // a problem here (the files are gone) is answered as a replay too
      const { status, headers, body } = stored.replay
        ? await rebuild({ workspaceId }, { ...stored, replay: stored.replay })
        : stored
      reply.code(status).headers(headers)
      return reply.send(body)
    }
    claims.set(request, { workspaceId, key: scopedKey })
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request)
    if (!claim) return payload
    claims.delete(request)
    if (!replayable(reply, payload)) {
      await release(request, claim)
      return payload
    }
    const headers: Record<string, string> = {}
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name)
      if (value !== undefined) headers[name] = String(value)
    }
    const pointer = pointers.get(reply)
    const body =
      pointer?.body ??
      (Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : ''))
    try {
      await store.complete(claim.workspaceId, claim.key, {
        status: reply.statusCode,
        headers,
        body,
        ...(pointer ? { replay: pointer.replay } : {}),
      })
    } catch (err) {
      // the work is done: answer it, and free the key rather than leave it in progress
      request.log.error({ err }, 'could not store an idempotent response')
      await release(request, claim)
    }
    return payload
  })

  // a request whose answer was never sent (the client went away first) frees its key
  app.addHook('onResponse', async (request) => {
    const claim = claims.get(request)
    if (claim) {
      claims.delete(request)
      await release(request, claim)
    }
  })
}

export const idempotencyPlugin = fp(idempotencyHooks, { name: 'docsvc-idempotency' })
