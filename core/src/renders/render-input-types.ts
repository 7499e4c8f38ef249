import type { Registry } from '../sdk/extension-points.ts'
import type { RenderProducer } from '../sdk/producer-contracts.ts'

/**
 * Every `input.type` a render request may name on this installation: the input plugins' and the
 * requestable producers' (templates; not PDF tools, which have routes of their own). The one list
 * behind the error for an unknown type and `capabilities.inputs`.
 */
export function renderInputTypes(
  inputPlugins: { keys(): string[] },
  producers: Pick<Registry<RenderProducer>, 'keys' | 'get'>,
): string[] {
  const requestable = producers.keys().filter((type) => producers.get(type)?.requestable === true)
  return [...new Set([...inputPlugins.keys(), ...requestable])].sort()
}
