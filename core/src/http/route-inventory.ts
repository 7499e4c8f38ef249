import type { FastifyInstance } from 'fastify'

export interface RouteEntry {
  method: string
  /** full path with prefixes, in Fastify's `:param` form */
  url: string
  /** `schema.hide`: left out of the OpenAPI document on purpose */
  hidden: boolean
}

/**
 * Records every route as it is added, so the OpenAPI document can be checked against what the
 * app really serves. Must run before any route or plugin is registered.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RouteEntry[] = []
  app.decorate('routeInventory', routes)
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true
    for (const method of methods) routes.push({ method, url: route.url, hidden })
  })
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly routeInventory: readonly RouteEntry[]
  }
}
