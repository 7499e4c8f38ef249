import fc from 'fast-check'
import type { OpenApiDocument, Operation } from './openapi-document.ts'

// Walks the request side of an OpenAPI operation: every field a client can send (parameters and
// body properties, through anyOf branches and array items), and bodies that carry one field the
// document does not describe at a given object.

export type Schema = Record<string, unknown>

/** The name no route may take: sent at every object of a body to see that it is refused. */
export const PROBE = 'undocumented_probe'

const MAX_DEPTH = 8

export function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  const name = ref.replace(/^#\/components\/schemas\//, '')
  return (doc.components.schemas[name] ?? {}) as Schema
}

const branchesOf = (s: Schema): Schema[] =>
  Array.isArray(s.anyOf) ? (s.anyOf as Schema[]) : Array.isArray(s.oneOf) ? (s.oneOf as Schema[]) : [s]

const isNull = (s: Schema) => s.type === 'null'

/** A field is described on itself, or on each of its anyOf branches but null. */
function described(s: Schema): boolean {
  if (typeof s.description === 'string' && s.description.trim() !== '') return true
  const branches = branchesOf(s).filter((b) => !isNull(b))
  return branches.length > 0 && branches[0] !== s && branches.every(described)
}

/** The JSON body schema of an operation, if it takes JSON. */
export function jsonBodyOf(doc: OpenApiDocument, operation: Operation): Schema | undefined {
  const schema = operation.requestBody?.content['application/json']?.schema
  return schema ? resolve(doc, schema) : undefined
}

export interface Field {
  /** `query:limit`, `path:render_id`, `body/pdf/margin/top` */
  where: string
  schema: Schema
}

function* bodyFields(doc: OpenApiDocument, s: Schema, at: string, depth: number): Generator<Field> {
  if (depth > MAX_DEPTH) return
  for (const branch of branchesOf(resolve(doc, s))) {
    const b = resolve(doc, branch)
    for (const [name, sub] of Object.entries((b.properties as Record<string, Schema>) ?? {})) {
      yield { where: `${at}/${name}`, schema: resolve(doc, sub) }
      yield* bodyFields(doc, sub, `${at}/${name}`, depth + 1)
    }
    if (b.items && typeof b.items === 'object')
      yield* bodyFields(doc, b.items as Schema, `${at}/[]`, depth + 1)
    if (b.additionalProperties && typeof b.additionalProperties === 'object')
      yield* bodyFields(doc, b.additionalProperties as Schema, `${at}/{key}`, depth + 1)
  }
}

/** Every field a client can send to the operation. */
export function* requestFields(doc: OpenApiDocument, operation: Operation): Generator<Field> {
  for (const p of operation.parameters ?? [])
    yield {
      where: `${p.in}:${p.name}`,
      schema: {
        ...(p.schema ?? {}),
        description: p.description ?? p.schema?.description,
        // OpenAPI puts a parameter's examples on the parameter, the several as named objects
        ...(p.example !== undefined ? { example: p.example } : {}),
        ...(p.examples ? { examples: Object.values(p.examples).map((e) => e.value) } : {}),
      },
    }
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
    if (media.schema)
      yield* bodyFields(doc, media.schema, type === 'application/json' ? 'body' : `body(${type})`, 0)
}

export function undescribed(fields: Iterable<Field>): string[] {
  return [...fields].filter((f) => !described(f.schema)).map((f) => f.where)
}

/**
 * Objects that take keys the document does not name: `additionalProperties` absent or `true`
 * with no `properties` schema for the values. A map documents its values
 * (`additionalProperties: {schema}`), so it is not one of them.
 */
export function openObjects(doc: OpenApiDocument, operation: Operation): string[] {
  const found: string[] = []
  const visit = (s: Schema, at: string, depth: number) => {
    if (depth > MAX_DEPTH) return
    for (const branch of branchesOf(resolve(doc, s))) {
      const b = resolve(doc, branch)
      const isObject = b.type === 'object' || b.properties !== undefined
      if (
        isObject &&
        (b.additionalProperties === undefined || b.additionalProperties === true) &&
        !b.patternProperties
      )
        found.push(at)
      for (const [name, sub] of Object.entries((b.properties as Record<string, Schema>) ?? {}))
        visit(sub, `${at}/${name}`, depth + 1)
      if (b.items && typeof b.items === 'object') visit(b.items as Schema, `${at}/[]`, depth + 1)
    }
  }
  const body = jsonBodyOf(doc, operation)
  if (body) visit(body, 'body', 0)
  return found
}

/** The smallest value the schema takes; fields named like a known resource get its id. */
export function minimal(
  doc: OpenApiDocument,
  schema: Schema,
  ids: Record<string, string>,
  name = '',
): unknown {
  const s = resolve(doc, schema)
  const branch = branchesOf(s).find((b) => !isNull(resolve(doc, b)))
  if (branch && branch !== s) return minimal(doc, branch, ids, name)
  if (ids[name] !== undefined && (s.type === 'string' || s.type === undefined)) return ids[name]
  if ('const' in s) return s.const
  if (Array.isArray(s.enum)) return (s.enum as unknown[])[0]
  if ('default' in s) return s.default
  switch (s.type) {
    case 'string':
      if (s.format === 'uri' || /url/i.test(name)) return 'https://93.184.215.14/'
      if (typeof s.pattern === 'string')
        return fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed: 1, numRuns: 1 })[0]
      return 'x'.repeat(Math.max(1, (s.minLength as number | undefined) ?? 1))
    case 'integer':
    case 'number':
      return (s.minimum as number | undefined) ?? 1
    case 'boolean':
      return false
    case 'array':
      return Array.from({ length: (s.minItems as number | undefined) ?? 0 }, () =>
        minimal(doc, (s.items as Schema) ?? {}, ids, name),
      )
    case 'object': {
      const properties = (s.properties as Record<string, Schema> | undefined) ?? {}
      const required = (s.required as string[] | undefined) ?? []
      return Object.fromEntries(required.map((k) => [k, minimal(doc, properties[k] ?? {}, ids, k)]))
    }
    default:
      return {}
  }
}

export interface ProbeBody {
  /** JSON Pointer of the object that carries the probe */
  at: string
  body: unknown
}

/**
 * Values of `schema`, each the smallest one plus the probe field in one of its closed objects,
 * one per object (and per anyOf branch: every input type of `POST /v1/renders` is probed).
 */
export function* probeBodies(
  doc: OpenApiDocument,
  schema: Schema,
  ids: Record<string, string>,
  name = '',
  depth = 0,
): Generator<ProbeBody> {
  if (depth > MAX_DEPTH) return
  for (const branch of branchesOf(resolve(doc, schema))) {
    const b = resolve(doc, branch)
    if (b.type === 'object' || b.properties !== undefined) {
      const base = minimal(doc, b, ids, name) as Record<string, unknown>
      if (b.additionalProperties === false) yield { at: '', body: { ...base, [PROBE]: 1 } }
      for (const [key, sub] of Object.entries((b.properties as Record<string, Schema>) ?? {}))
        for (const inner of probeBodies(doc, sub, ids, key, depth + 1))
          yield { at: `/${key}${inner.at}`, body: { ...base, [key]: inner.body } }
    }
    if (b.type === 'array' && b.items && typeof b.items === 'object') {
      const rest = (minimal(doc, b, ids, name) as unknown[]).slice(1)
      for (const inner of probeBodies(doc, b.items as Schema, ids, name, depth + 1))
        yield { at: `/0${inner.at}`, body: [inner.body, ...rest] }
    }
  }
}
