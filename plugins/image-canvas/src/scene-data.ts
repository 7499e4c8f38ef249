import { ProblemError } from '@docsvc/core/sdk'
import type { TSchema } from 'typebox'
import { pointerToken } from './json-pointer.ts'
import type { Warn } from './layer-context.ts'
import { LAYER_SCHEMAS, type Layer, type LayerType, type Scene } from './scene-schema.ts'
import { issueMessage, layerChecker, layerProperties, type SceneProblem } from './scene-validation.ts'

/** A layer's property set from data, and where in `data` it was found (JSON Pointer). */
interface Binding {
  layer: string
  property: string
  pointer: string
  value: unknown
}

type Kind = { kind: 'string' | 'number' | 'integer' | 'boolean' } | { kind: 'enum'; values: string[] }

export interface AppliedData {
  scene: Scene
  /** `layer.property` addresses whose value came from data, with the JSON Pointer of that value */
  bound: Map<string, string>
}

/**
 * The scene with `data` applied: `{"title.text": "Hi"}` and `{"title": {"text": "Hi"}}` both set
 * layer `title`'s `text` (the flat key wins when both are given). Values of a near type are
 * converted with data_coerced; values that cannot be used, and missing `required` properties,
 * are 422 data_invalid naming each property.
 */
export function applySceneData(scene: Scene, data: unknown, warn: Warn): AppliedData {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ProblemError('data_invalid', 'Canvas data must be an object', {
      errors: [{ path: '', code: 'type', message: 'must be an object' }],
    })
  const bindings = collectBindings(scene, data as Record<string, unknown>, warn)
  const problems: SceneProblem[] = []
  const bound = new Map<string, string>()
  const layers = scene.layers.map((layer) => {
    const own = bindings.filter((b) => b.layer === layer.name)
    for (const property of layer.required ?? [])
      if (!own.some((b) => b.property === property && b.value !== null && b.value !== undefined))
        problems.push({
          path: `/${pointerToken(layer.name)}.${pointerToken(property)}`,
          code: 'required',
          message: `${layer.name}.${property} is required by the design and missing from data`,
        })
    if (own.length === 0) return layer
    const changed: Record<string, unknown> = { ...layer }
    for (const binding of own) {
      const result = coerce(binding, kindOf(layer.type, binding.property))
      if ('problem' in result) problems.push(result.problem)
      else if (result.skip) warn('data_coerced', `${address(binding)} is null; the design's value was kept`)
      else {
        if (result.coerced)
          warn('data_coerced', `${address(binding)} was converted to ${JSON.stringify(result.value)}`)
        changed[binding.property] = result.value
        bound.set(address(binding), binding.pointer)
      }
    }
    problems.push(...rangeProblems(changed, own))
    return changed as Layer
  })
  if (problems.length > 0) {
    const first = problems[0] as SceneProblem
    throw new ProblemError('data_invalid', `Canvas data cannot be used: ${first.message}`, {
      errors: problems,
    })
  }
  return { scene: { ...scene, layers }, bound }
}

function collectBindings(scene: Scene, data: Record<string, unknown>, warn: Warn): Binding[] {
  const bindings: Binding[] = []
  const byName = new Map(scene.layers.map((l) => [l.name, l]))
  const add = (layer: Layer, property: string, pointer: string, value: unknown) => {
    const binding = { layer: layer.name, property, pointer, value }
    if (!layerProperties(layer.type).includes(property) || property === 'required') {
      warn('data_coerced', `${address(binding)} is not a property a ${layer.type} layer takes; ignored`)
      return
    }
    if (!bindings.some((b) => b.layer === layer.name && b.property === property)) bindings.push(binding)
  }
  for (const [key, value] of Object.entries(data)) {
    const dot = key.indexOf('.')
    if (dot < 0) continue
    const layer = byName.get(key.slice(0, dot))
    if (layer) add(layer, key.slice(dot + 1), `/${pointerToken(key)}`, value)
  }
  for (const [key, value] of Object.entries(data)) {
    const layer = byName.get(key)
    // a non-object under a layer's name is other data (a filename field, say), not a binding
    if (!layer || typeof value !== 'object' || value === null || Array.isArray(value)) continue
    for (const [property, inner] of Object.entries(value))
      add(layer, property, `/${pointerToken(key)}/${pointerToken(property)}`, inner)
  }
  return bindings
}

function kindOf(type: LayerType, property: string): Kind {
  const schema = (LAYER_SCHEMAS[type].properties as Record<string, TSchema>)[property] as {
    type?: string
    anyOf?: { const?: unknown }[]
  }
  if (schema.anyOf) return { kind: 'enum', values: schema.anyOf.map((s) => String(s.const)) }
  return { kind: schema.type as 'string' | 'number' | 'integer' | 'boolean' }
}

type Coerced = { value: unknown; coerced: boolean; skip?: false } | { skip: true } | { problem: SceneProblem }

function coerce(binding: Binding, expected: Kind): Coerced {
  const { value } = binding
  const invalid = (wanted: string): Coerced => ({
    problem: {
      path: binding.pointer,
      code: 'type',
      message: `${address(binding)} must be ${wanted}, got ${describe(value)}`,
    },
  })
  if (value === null || value === undefined) return { skip: true }
  switch (expected.kind) {
    case 'string':
      if (typeof value === 'string') return { value, coerced: false }
      if (typeof value === 'number' || typeof value === 'boolean')
        return { value: String(value), coerced: true }
      return invalid('a string')
    case 'number':
    case 'integer': {
      let n: number | undefined
      if (typeof value === 'number') n = value
      else if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        n = Number(value)
      if (n === undefined) return invalid('a number')
      if (expected.kind === 'integer' && !Number.isInteger(n)) return { value: Math.round(n), coerced: true }
      return { value: n, coerced: typeof value !== 'number' }
    }
    case 'boolean':
      if (typeof value === 'boolean') return { value, coerced: false }
      if (value === 'true' || value === 1 || value === '1') return { value: true, coerced: true }
      if (value === 'false' || value === 0 || value === '0') return { value: false, coerced: true }
      return invalid('true or false')
    case 'enum': {
      if (typeof value === 'string') {
        if (expected.values.includes(value)) return { value, coerced: false }
        const match = expected.values.find((v) => v.toLowerCase() === value.trim().toLowerCase())
        if (match) return { value: match, coerced: true }
      }
      return invalid(`one of ${expected.values.map((v) => JSON.stringify(v)).join(', ')}`)
    }
  }
}

/** Values of the right type can still break the layer's limits (a colour, a size). */
function rangeProblems(layer: Record<string, unknown>, bindings: Binding[]): SceneProblem[] {
  const checker = layerChecker(layer.type as string)
  if (!checker) return []
  const problems: SceneProblem[] = []
  for (const issue of checker.Errors(layer)) {
    const property = issue.instancePath.split('/')[1]
    const binding = bindings.find((b) => b.property === property)
    if (binding && !problems.some((p) => p.path === binding.pointer))
      problems.push({
        path: binding.pointer,
        code: issue.keyword,
        message: `${address(binding)} ${issueMessage(issue)}`,
      })
  }
  return problems
}

function address(binding: Binding): string {
  return `${binding.layer}.${binding.property}`
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${JSON.stringify(value)}`.slice(0, 80)
}
