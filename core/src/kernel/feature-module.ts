import { type AwilixContainer, asClass, type BuildResolver, type DisposableResolver, Lifetime } from 'awilix'
import type { FastifyPluginAsync } from 'fastify'
import type { TObject } from 'typebox'
import type { HealthReport, PluginContext, PluginManifest, ProcessRole } from '../sdk/define-plugin.ts'
import { drawsWithOutput, type ProducerWork, type RenderProducer } from '../sdk/producer-contracts.ts'
import type { Cradle } from './container.ts'
import type { ExtensionPoint } from './plugins/extension-points.ts'

/**
 * What a built-in feature's register() gets: a plugin's context (registries, its config, log,
 * host) plus the kernel's container, which only core code sees (features are trusted; plugins
 * reach core through registries and `host` alone).
 */
export interface FeatureRegisterContext<C = Record<string, unknown>> extends PluginContext<C> {
  container: AwilixContainer<Cradle>
}

/** What start, stop and healthcheck get: the register context, the resolved cradle and the roles. */
export interface FeatureContext<C = Record<string, unknown>> extends FeatureRegisterContext<C> {
  cradle: Cradle
  roles: ProcessRole[]
}

/**
 * A core capability beyond the render pipeline (templates, uploads, PDF tools, webhooks...). It
 * is a plugin manifest (decision 0038): the plugin loader checks, orders, registers, starts,
 * stops and health-checks features and plugins in one pass, so `requires` may name either. What
 * a feature has beyond a plugin is the container in its context and its routes. Its container
 * entries extend `Cradle` by declaration merging in the feature's folder.
 */
export interface FeatureModule<C = Record<string, unknown>> {
  /** kebab-case, unique among features and plugins */
  readonly id: string
  /** ids of features or plugins that must register and start first (boot fails when one is missing) */
  readonly requires?: string[]
  /** what register() adds to the registries, per extension point (checked as a plugin's is) */
  readonly provides?: Partial<Record<ExtensionPoint, string[]>>
  /** the feature's own settings, read from `DOCSVC_FEATURE_<ID>_*` and validated at boot */
  readonly config?: TObject
  /** wiring only, no I/O: services into the container, producers into the registries */
  register?(ctx: FeatureRegisterContext<C>): void
  /** routes under /v1 */
  readonly v1Routes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** routes at the root (outside /v1's auth guard), e.g. public signed links */
  readonly rootRoutes?: FastifyPluginAsync<{ container: AwilixContainer<Cradle> }>
  /** OpenAPI 3.1 `webhooks` entries for the events the feature sends, by event name */
  openApiWebhooks?(): Record<string, unknown>
  /** after the plugins and features it follows, in every process that serves (check `roles`) */
  start?(ctx: FeatureContext<C>): Promise<void> | void
  /** in reverse order */
  stop?(ctx: FeatureContext<C>): Promise<void> | void
  /** shown in GET /readyz under the feature's id; not ok makes the instance not ready (503) */
  healthcheck?(ctx: FeatureContext<C>): Promise<HealthReport> | HealthReport
}

/**
 * The feature as the plugin loader takes it: a manifest whose contexts carry the container.
 * `roles` are the process's, known before anything loads.
 */
export function featureManifest(
  feature: FeatureModule<never>,
  container: AwilixContainer<Cradle>,
  roles: ProcessRole[],
): PluginManifest<never> {
  const full = (ctx: PluginContext<never>): FeatureContext<never> => ({
    ...ctx,
    container,
    cradle: container.cradle,
    roles,
  })
  const { start, stop, healthcheck } = feature
  return {
    id: feature.id,
    apiVersion: '*',
    provides: feature.provides ?? {},
    ...(feature.requires ? { requires: feature.requires } : {}),
    ...(feature.config ? { config: feature.config } : {}),
    register: (ctx) => feature.register?.({ ...ctx, container }),
    ...(start ? { start: (ctx) => start.call(feature, full(ctx)) } : {}),
    ...(stop ? { stop: (ctx) => stop.call(feature, full(ctx)) } : {}),
    ...(healthcheck ? { healthcheck: (ctx) => healthcheck.call(feature, full(ctx)) } : {}),
  }
}

/**
 * A producer whose work is a container service, so register() adds it without resolving
 * anything (the service's dependencies are registered later in the boot). `service` names the
 * container entry that does the work.
 */
export function producerOf(
  container: AwilixContainer<Cradle>,
  shape: Pick<RenderProducer, 'inputType' | 'ownsOutput' | 'requestable'>,
  service: (cradle: Cradle) => ProducerWork,
): RenderProducer {
  return {
    ...shape,
    validate: (request) => service(container.cradle).validate?.(request),
    drawsWithOutput: (request) => drawsWithOutput(service(container.cradle), shape.ownsOutput, request),
    produce: (ctx) => service(container.cradle).produce(ctx),
  }
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
