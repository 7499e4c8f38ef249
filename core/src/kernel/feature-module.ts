import { type AwilixContainer, asClass, type BuildResolver, type DisposableResolver, Lifetime } from 'awilix'
import type { FastifyPluginAsync } from 'fastify'
import type { RenderProducer } from '../renders/render-producers.ts'
import type { Cradle } from './container.ts'

/**
 * A core capability beyond the render pipeline (templates, uploads, PDF tools, webhooks...),
 * wired in one place (core/src/features.ts) instead of edits to the container, the app and the
 * kernel. Its container entries extend `Cradle` by declaration merging in the feature's folder.
 */
export interface FeatureModule {
  readonly name: string
  /** adds the feature's services to the container (before anything resolves) */
  register?(container: AwilixContainer<Cradle>): void
  /** routes under /v1 */
  readonly v1Routes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** routes at the root (outside /v1's auth guard), e.g. public signed links */
  readonly rootRoutes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** render producers for the input types this feature makes */
  producers?(cradle: Cradle): RenderProducer[]
  /** worker role: start job handlers and background loops; the returned function stops them */
  startWorker?(cradle: Cradle): Promise<() => Promise<void>>
}

// biome-ignore lint/suspicious/noExplicitAny: a constructor of any shape; awilix injects its deps
type Constructor = new (...args: any[]) => unknown

/** Container entries for services made once per container: what every feature registers. */
export function singletons<T extends Record<string, Constructor>>(
  classes: T,
): { [K in keyof T]: BuildResolver<InstanceType<T[K]>> & DisposableResolver<InstanceType<T[K]>> } {
  const entries = Object.entries(classes).map(([name, type]) => [
    name,
    asClass(type, { lifetime: Lifetime.SINGLETON }),
  ])
  return Object.fromEntries(entries) as never
}
