import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { KernelCore } from '../kernel/kernel.ts'
import { buildApp } from './app.ts'

/**
 * The api role: one Fastify app with the core routes and every loaded feature's `v1Routes` and
 * `rootRoutes`. The composition root imports this file only for a process with the api role, so
 * Fastify is never loaded by the kernel (docs/decisions/0035). The port is opened by server.ts.
 */
export async function startHttpModule(
  core: KernelCore,
  extraV1Routes: FastifyPluginAsync[] = [],
): Promise<FastifyInstance> {
  const app = await buildApp({
    container: core.container,
    logger: core.log,
    features: core.features,
    healthchecks: core.healthchecks,
    extraV1Routes,
  })
  await app.ready()
  return app
}
