import type { Registry } from '../../sdk/extension-points.ts'
import { ProblemError } from '../problem-error.ts'

/**
 * What a plugin registered under `key`, looked up when core needs it; without it the request is
 * refused with service_unavailable naming the missing capability (not a crash), as a missing
 * queue backend is.
 */
export function requiredCapability<T>(registry: Registry<T>, key: string): T {
  const value = registry.get(key)
  if (value === undefined) {
    throw new ProblemError(
      'service_unavailable',
      `This installation has no ${registry.name} "${key}": no plugin registered it.`,
    )
  }
  return value
}
