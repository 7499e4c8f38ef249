import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { Scope } from '../api-keys/scopes.ts'
import type { Plan } from '../plans/plan.ts'

/**
 * `key` (the default): a workspace API key; `public`: anyone (documentation, health probes, signed
 * file links whose token is the credential);
 * `operator`: the operator token (the admin API).
 */
export type RouteAccess = 'key' | 'public' | 'operator'

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the /v1 authentication hook */
    auth?: AuthContext
    /** the workspace's plan, set with auth */
    plan?: Plan
    /** the JSON body as received, for idempotency fingerprints */
    rawBody?: Buffer
  }
  interface FastifyContextConfig {
    /** scopes of which the key needs one (SPEC Part 5) */
    scope?: Scope | Scope[]
    /** who may call the route; an API key unless the route says otherwise (see access-guard.ts) */
    access?: RouteAccess
  }
}
