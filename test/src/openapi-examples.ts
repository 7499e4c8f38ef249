import type { Ajv } from 'ajv'
import type { OpenApiDocument, Operation } from './openapi-document.ts'
import { type Field, requestFields, resolve, type Schema } from './openapi-walk.ts'

// Whether the request fields of an operation carry examples, and whether those examples are
// values the API takes.
//
// The rule: a field is exemplified when it carries `example` or `examples` itself, or
// - its only value is fixed (`const`, or an `enum` of one: a discriminator like `type: "html"`
//   shows its value already);
// - it is an object with named properties: each property is a field of its own and is checked
//   there, so the object's example is theirs put together (a map, with no named properties,
//   needs its own: its keys are what a reader wants to see);
// - it is an array whose items are exemplified by this rule;
// - it is a union (anyOf/oneOf) each of whose branches but `null` is exemplified by this rule.
// An enum of several values or a boolean is not exempt: the example says which one is typical.

const branchesOf = (s: Schema): Schema[] | undefined =>
  Array.isArray(s.anyOf) ? (s.anyOf as Schema[]) : Array.isArray(s.oneOf) ? (s.oneOf as Schema[]) : undefined

const hasExample = (s: Schema) => s.example !== undefined || Array.isArray(s.examples)

/**
 * The field's own shape lacks an example that its parts (checked as fields) do not make up.
 * `whole`: the schema is the field itself, not one branch of a union of several (a branch that is
 * one `const` is one value among others, not a fixed value).
 */
function lacksExample(doc: OpenApiDocument, schema: Schema, whole = true): boolean {
  const s = resolve(doc, schema)
  if (hasExample(s)) return false
  if (whole && ('const' in s || (Array.isArray(s.enum) && s.enum.length === 1))) return false
  const branches = branchesOf(s)
    ?.map((b) => resolve(doc, b))
    .filter((b) => b.type !== 'null')
  if (branches?.length === 1) return lacksExample(doc, branches[0] as Schema, whole)
  if (branches) return branches.some((b) => lacksExample(doc, b, false))
  if (s.properties && Object.keys(s.properties).length > 0) return false
  if (s.type === 'array' && s.items && typeof s.items === 'object')
    return lacksExample(doc, s.items as Schema)
  return true
}

/** `body/pdf/landscape`, `query:limit`: the request fields of the operation with no example. */
export function fieldsWithoutExamples(doc: OpenApiDocument, operation: Operation): string[] {
  const fields: Field[] = [...requestFields(doc, operation)]
  return [...new Set(fields.filter((f) => lacksExample(doc, f.schema)).map((f) => f.where))]
}

interface Example {
  /** the field, and where below it the example sits when on a branch or the items */
  where: string
  schema: Schema
  value: unknown
}

/** The examples a field's schema carries: on itself, its union branches and its items. */
function* examplesOf(doc: OpenApiDocument, schema: Schema, where: string): Generator<Example> {
  const s = resolve(doc, schema)
  if (s.example !== undefined) yield { where, schema: s, value: s.example }
  if (Array.isArray(s.examples))
    for (const [i, value] of s.examples.entries())
      yield { where: `${where} examples[${i}]`, schema: s, value }
  for (const [i, branch] of (branchesOf(s) ?? []).entries())
    yield* examplesOf(doc, branch, `${where} anyOf[${i}]`)
  if (s.items && typeof s.items === 'object') yield* examplesOf(doc, s.items as Schema, `${where} items`)
}

/**
 * The examples of the operation's request fields that their own schema refuses, each with the
 * validator's words. `ajv` is the one the app checks bodies with, so "valid" means what it does
 * for a request (cross-field rules a route checks in code are beyond a field's schema).
 */
export function refusedExamples(ajv: Ajv, doc: OpenApiDocument, operation: Operation): string[] {
  const refused: string[] = []
  for (const field of requestFields(doc, operation)) {
    for (const example of examplesOf(doc, field.schema, field.where)) {
      const validate = compiled(ajv, example.schema)
      // the app's validator fills defaults in: the document's value stays as it is
      if (!validate(structuredClone(example.value)))
        refused.push(
          `${example.where} ${JSON.stringify(example.value).slice(0, 120)}: ${ajv.errorsText(validate.errors)}`,
        )
    }
  }
  return refused
}

const cache = new WeakMap<Ajv, Map<string, ReturnType<Ajv['compile']>>>()

/** Fields shared by many operations (the render options) are compiled once. */
function compiled(ajv: Ajv, schema: Schema): ReturnType<Ajv['compile']> {
  const byJson = cache.get(ajv) ?? new Map<string, ReturnType<Ajv['compile']>>()
  cache.set(ajv, byJson)
  const { example: _example, examples: _examples, ...rule } = schema
  const key = JSON.stringify(rule)
  const found = byJson.get(key)
  if (found) return found
  const validate = ajv.compile(rule)
  byJson.set(key, validate)
  return validate
}
