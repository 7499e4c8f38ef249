import type { Logger } from 'pino'
import type { FeatureContext, FeatureModule } from './feature-module.ts'
import type { BoundHealthcheck } from './plugins/plugin-loader.ts'
import { orderByRequires } from './plugins/plugin-order.ts'

export class FeatureBootError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeatureBootError'
  }
}

const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*$/

/**
 * The features in `requires` order (the given order otherwise), as the plugin loader orders
 * plugins; every bad id, twin, missing requirement and cycle in one error.
 */
export function orderFeatures(features: FeatureModule[]): FeatureModule[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const f of features) {
    if (!KEBAB_CASE.test(f.id)) problems.push(`feature id "${f.id}" is not kebab-case`)
    if (seen.has(f.id)) problems.push(`feature id "${f.id}" is used twice`)
    seen.add(f.id)
  }
  const ordered = orderByRequires(
    features.map((manifest) => ({ manifest })),
    'feature',
  )
  problems.push(...ordered.problems)
  if (problems.length > 0)
    throw new FeatureBootError(`features cannot start:\n  - ${problems.join('\n  - ')}`)
  return ordered.ordered.map((f) => f.manifest)
}

/**
 * start() in order; when one fails, the ones already started stop (reverse order) and the
 * failure is thrown. Returns the stop of all of them, in reverse order, each failure logged.
 */
export async function startFeatures(
  features: FeatureModule[],
  ctx: FeatureContext,
  log: Logger,
): Promise<() => Promise<void>> {
  const started: FeatureModule[] = []
  const stop = async () => {
    for (const f of [...started].reverse()) {
      try {
        await f.stop?.(ctx)
      } catch (err) {
        log.error({ err, feature: f.id }, 'feature failed to stop')
      }
    }
    started.length = 0
  }
  for (const f of features) {
    try {
      await f.start?.(ctx)
    } catch (err) {
      await stop()
      throw new FeatureBootError(`feature ${f.id} failed to start: ${(err as Error).message}`)
    }
    started.push(f)
  }
  return stop
}

/** The features' healthchecks, each bound to its kernel's context, for GET /readyz. */
export function featureHealthchecks(features: FeatureModule[], ctx: FeatureContext): BoundHealthcheck[] {
  return features.flatMap((f): BoundHealthcheck[] => {
    const { healthcheck } = f
    if (!healthcheck) return []
    return [{ id: f.id, check: async () => healthcheck.call(f, ctx) }]
  })
}
