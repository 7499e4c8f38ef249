import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from '../kernel/problem-error.ts'
import type { IdempotencyStore } from './idempotency-store.ts'

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const KEPT_HEADERS = ['content-type', 'location']
const claims = new WeakMap<FastifyRequest, { workspaceId: string; key: string }>()

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? Buffer.alloc(0))
    .digest('hex')
}

/** Responses a retry with the same key should not get back: the request never really ran. */
function replayable(reply: FastifyReply, payload: unknown): boolean {
  if (reply.statusCode >= 500 || reply.statusCode === 429) return false
  return typeof payload === 'string' || Buffer.isBuffer(payload) || payload === undefined || payload === null
}

async function idempotencyHooks(app: FastifyInstance, opts: { store: IdempotencyStore }): Promise<void> {
  const { store } = opts

  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST' || !request.auth) return
    const header = request.headers['idempotency-key']
    if (header === undefined) return
    const key = Array.isArray(header) ? header[0] : header
    if (key === undefined || !KEY_PATTERN.test(key)) {
      throw new ProblemError(
        'validation_error',
        'Idempotency-Key must be 1 to 255 visible ASCII characters.',
        {
          errors: [
            {
              path: '/idempotency-key',
              in: 'header',
              code: 'invalid',
              message: 'must be 1 to 255 visible ASCII characters',
            },
          ],
        },
      )
    }
    const workspaceId = request.auth.workspace.id
    // test and live keys of one workspace do not share idempotency keys
    const scopedKey = `${request.auth.test ? 'test' : 'live'}:${key}`
    const start = await store.start(workspaceId, scopedKey, fingerprint(request))
    if (start.kind === 'replay') {
      const { status, headers, body } = start.response
      reply.code(status).headers(headers).header('Idempotent-Replayed', 'true')
      return reply.send(body)
    }
    claims.set(request, { workspaceId, key: scopedKey })
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request)
    if (!claim) return payload
    claims.delete(request)
    if (!replayable(reply, payload)) {
      await store.release(claim.workspaceId, claim.key)
      return payload
    }
    const headers: Record<string, string> = {}
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name)
      if (value !== undefined) headers[name] = String(value)
    }
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : '')
    await store.complete(claim.workspaceId, claim.key, { status: reply.statusCode, headers, body })
    return payload
  })

  // a request the client abandoned, or one whose response failed to send, frees its key
  app.addHook('onResponse', async (request) => {
    const claim = claims.get(request)
    if (claim) {
      claims.delete(request)
      await store.release(claim.workspaceId, claim.key)
    }
  })
}

export const idempotencyPlugin = fp(idempotencyHooks, { name: 'docsvc-idempotency' })
