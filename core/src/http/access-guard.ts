import { Transform } from 'node:stream'
import { asValue } from 'awilix'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { requireOperator } from '../admin/operator-auth.ts'
import type { ApiKeyService } from '../api-keys/api-key-service.ts'
import type { KeyUsageRecorder } from '../api-keys/key-usage-recorder.ts'
import { hasScope } from '../api-keys/scopes.ts'
import type { Config } from '../kernel/config.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { PlanService } from '../plans/plan-service.ts'
import { type RateLimiter, type RateLimitPolicy, rateLimitHeaders } from '../rate-limits/rate-limiter.ts'

export interface GuardDeps {
  config: Config
  apiKeyService: ApiKeyService
  keyUsageRecorder: KeyUsageRecorder
  planService: Pick<PlanService, 'get'>
  rateLimiter: RateLimiter
}

function keyFromHeaders(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization
  if (typeof authorization === 'string' && authorization.trim() !== '') {
    const match = /^Bearer(?:\s+(\S+))?$/i.exec(authorization.trim())
    // any other scheme (even a bare key) is a wrong credential, not a missing one
    if (!match)
      throw new ProblemError('invalid_api_key', 'Send the key as Authorization: Bearer <key> or X-API-Key.')
    // "Bearer" with no token carries no credential
    if (match[1]) return match[1]
  }
  const apiKey = request.headers['x-api-key']
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey.trim() : undefined
}

/**
 * Every route, by what the route itself declares (`config.access`, an API key unless it says
 * otherwise): authenticate the key (401s, workspace state and IP 403s), rate-limit the workspace
 * (or, without a key, the client address), then check the route's scope. The decision follows
 * the route the router matched, never the raw URL: the router decodes `/%761/account` to
 * `/v1/account`, so a guard that read the raw path let such requests through without a key.
 */
async function accessGuard(app: FastifyInstance, deps: GuardDeps): Promise<void> {
  const anonymous: RateLimitPolicy = {
    name: 'anonymous',
    limit: deps.config.anonymousRequestsPerSecond,
    windowSeconds: 1,
  }

  async function limit(request: FastifyRequest, bucket: string, policy: RateLimitPolicy): Promise<void> {
    const outcome = await deps.rateLimiter.consume(bucket, policy)
    const headers = rateLimitHeaders(outcome)
    request.raw.rateLimitHeaders = headers
    if (!outcome.allowed) {
      throw new ProblemError(
        'rate_limited',
        `More than ${policy.limit} requests per ${policy.windowSeconds} s.`,
        {
          headers,
        },
      )
    }
  }

  app.addHook('onRequest', async (request, reply) => {
    // an unknown path has no route to ask; its 404 gives nothing away but counts per client
    // address, which slows scanning
    if (request.is404) return limit(request, request.ip, anonymous)
    const access = request.routeOptions.config.access ?? 'key'
    // documentation, probes and signed file links: an independent client may fetch them quickly
    if (access === 'public') return
    // wrong tokens count against the caller's address in a limit of their own (operator-auth.ts)
    if (access === 'operator') return requireOperator(request, deps)
    try {
      request.auth = await deps.apiKeyService.authenticate(keyFromHeaders(request), request.ip)
    } catch (err) {
      // failed authentication counts against the caller's address, which slows key guessing
      await limit(request, request.ip, anonymous)
      throw err
    }
    request.diScope.register({ auth: asValue(request.auth) })
    const { workspace, key } = request.auth
    deps.keyUsageRecorder.record(key.id, request.ip)
    const plan = await deps.planService.get(workspace.plan_id)
    if (plan) request.plan = plan
    const policy: RateLimitPolicy = {
      name: 'workspace',
      limit: plan?.limits.requests_per_second ?? anonymous.limit,
      windowSeconds: 1,
    }
    await limit(request, workspace.id, policy)
    const scope = request.routeOptions.config.scope
    if (scope && !hasScope(key.scopes, scope)) {
      const needed = typeof scope === 'string' ? scope : scope.join(' or ')
      throw new ProblemError('insufficient_scope', `This request needs the scope ${needed}.`)
    }
    reply.header('X-Workspace-Id', workspace.id)
  })

  app.addHook('preParsing', async (request, _reply, payload) => {
    const max = request.plan?.limits.max_body_bytes
    if (max === undefined) return payload
    if (Number(request.headers['content-length'] ?? 0) > max) throw bodyTooLarge(max)
    return limitedBody(payload, max)
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const headers = request.raw.rateLimitHeaders
    if (headers) for (const [name, value] of Object.entries(headers)) reply.header(name, value)
    return payload
  })
}

function bodyTooLarge(max: number): ProblemError {
  return new ProblemError('payload_too_large', `The body is larger than your plan's ${max} bytes.`)
}

/** Counts a streamed body and stops it at the plan's limit (chunked bodies declare no length). */
function limitedBody(payload: NodeJS.ReadableStream, max: number): Transform {
  let received = 0
  const counter = new Transform({
    transform(chunk: Buffer, _enc, next) {
      received += chunk.length
      ;(counter as Transform & { receivedEncodedLength: number }).receivedEncodedLength = received
      if (received > max) next(bodyTooLarge(max))
      else next(null, chunk)
    },
  })
  payload.on('error', (err) => counter.destroy(err))
  return payload.pipe(counter)
}

declare module 'node:http' {
  interface IncomingMessage {
    rateLimitHeaders?: Record<string, string>
  }
}

export const accessGuardPlugin = fp(accessGuard, { name: 'docsvc-access-guard' })
