import { type AwilixContainer, asClass, type BuildResolver, type DisposableResolver, Lifetime } from 'awilix'
import type { FastifyPluginAsync } from 'fastify'
import type { RenderProducer } from '../renders/render-producers.ts'
import type { HealthReport, ProcessRole } from '../sdk/define-plugin.ts'
import type { Cradle } from './container.ts'

/** What a feature's start, stop and healthcheck get: its kernel's services and roles. */
export interface FeatureContext {
  cradle: Cradle
  roles: ProcessRole[]
}

/**
 * A core capability beyond the render pipeline (templates, uploads, PDF tools, webhooks...),
 * wired in one place (core/src/features.ts) instead of edits to the container, the app and the
 * kernel. Its container entries extend `Cradle` by declaration merging in the feature's folder.
 * It has the plugin manifest's shape where the two overlap (decision 0038): `id`, `requires`,
 * `register`, `start`/`stop` per process role, `healthcheck(ctx)`.
 */
export interface FeatureModule {
  /** kebab-case, unique among features */
  readonly id: string
  /** ids of features that must register and start first (boot fails when one is missing) */
  readonly requires?: string[]
  /** adds the feature's services to the container (before anything resolves) */
  register?(container: AwilixContainer<Cradle>): void
  /** routes under /v1 */
  readonly v1Routes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** routes at the root (outside /v1's auth guard), e.g. public signed links */
  readonly rootRoutes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** OpenAPI 3.1 `webhooks` entries for the events the feature sends, by event name */
  openApiWebhooks?(): Record<string, unknown>
  /** render producers for the input types this feature makes */
  producers?(cradle: Cradle): RenderProducer[]
  /** after plugins start, in `requires` order, for every process that serves (check `roles`) */
  start?(ctx: FeatureContext): Promise<void> | void
  /** in reverse order, before plugins stop */
  stop?(ctx: FeatureContext): Promise<void> | void
  /** shown in GET /readyz under the feature's id; not ok makes the instance not ready (503) */
  healthcheck?(ctx: FeatureContext): Promise<HealthReport> | HealthReport
  /**
   * The pre-manifest lifecycle, kept until every feature uses start/stop: worker role only,
   * started after the render job handler; the returned function stops it.
   */
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
