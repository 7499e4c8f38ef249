import type { Registry as RegistryContract } from '../../sdk/extension-points.ts'

/**
 * One extension point (the SDK's `Registry`): a typed map from a key (an input type, a format, a provider name) to what
 * a plugin registered for it. A second registration of a key stops boot, naming both plugins.
 */
export class Registry<T> implements RegistryContract<T> {
  readonly name: string
  readonly #entries = new Map<string, { value: T; pluginId: string }>()

  constructor(name: string) {
    this.name = name
  }

  add(key: string, value: T, pluginId = 'unknown'): void {
    const existing = this.#entries.get(key)
    if (existing) {
      throw new Error(
        `${this.name} "${key}" is registered twice: by plugin ${existing.pluginId} and by plugin ${pluginId}`,
      )
    }
    this.#entries.set(key, { value, pluginId })
  }

  get(key: string): T | undefined {
    return this.#entries.get(key)?.value
  }

  has(key: string): boolean {
    return this.#entries.has(key)
  }

  keys(): string[] {
    return [...this.#entries.keys()].sort()
  }

  ownerOf(key: string): string | undefined {
    return this.#entries.get(key)?.pluginId
  }
}
