import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Config } from '../kernel/config.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { type RateLimiter, type RateLimitPolicy, rateLimitHeaders } from '../rate-limits/rate-limiter.ts'

/** Wrong operator tokens an address may send per minute before it is refused outright. */
export const OPERATOR_AUTH_FAILURES: RateLimitPolicy = {
  name: 'operator_auth_failures',
  limit: 10,
  windowSeconds: 60,
}

export interface OperatorAuthDeps {
  config: Pick<Config, 'operatorToken'>
  rateLimiter: RateLimiter
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * The admin API answers only the operator token from config; workspace keys never pass. Only
 * failures count against the client address: past the limit, the address is refused before its
 * token is even compared, so guessing cannot go on at full speed (a right token included).
 */
export async function requireOperator(request: FastifyRequest, deps: OperatorAuthDeps): Promise<void> {
  const { operatorToken } = deps.config
  if (!operatorToken) throw new ProblemError('not_found', 'The admin API is off; set DOCSVC_OPERATOR_TOKEN.')
  const standing = await deps.rateLimiter.check(request.ip, OPERATOR_AUTH_FAILURES)
  if (!standing.allowed) {
    throw new ProblemError(
      'rate_limited',
      `More than ${OPERATOR_AUTH_FAILURES.limit} wrong operator tokens per minute from this address.`,
      { headers: rateLimitHeaders(standing) },
    )
  }
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match?.[1] || !sameText(match[1], operatorToken)) {
    await deps.rateLimiter.consume(request.ip, OPERATOR_AUTH_FAILURES)
    throw new ProblemError(
      'operator_token_required',
      'Send the operator token (DOCSVC_OPERATOR_TOKEN) as a Bearer token.',
    )
  }
}
