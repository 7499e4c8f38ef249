import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { ProblemError } from '../kernel/problem-error.ts'

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The admin API answers only the operator token from config; workspace keys never pass. */
export function requireOperator(request: FastifyRequest, operatorToken: string): void {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match?.[1] || !sameText(match[1], operatorToken)) {
    throw new ProblemError(
      'operator_token_required',
      'Send the operator token (DOCSVC_OPERATOR_TOKEN) as a Bearer token.',
    )
  }
}
