import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { Scope } from '../api-keys/scopes.ts'
import type { Plan } from '../plans/plan.ts'

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
    /** a /v1 route that needs no API key (the OpenAPI document) */
    public?: boolean
  }
}
