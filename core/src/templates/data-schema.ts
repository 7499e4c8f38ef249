import { createHash } from 'node:crypto'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { issuesToProblems } from '../http/validation-errors.ts'
import { type FieldProblem, ProblemError } from '../kernel/problem-error.ts'
import { linearRegExp } from './linear-regexp.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

// A template's data JSON Schema (draft 2020-12). Compiled schemas are kept by content hash,
// a bounded number of them, since many renders use the same few versions.
const MAX_CACHED = 200
const ajv = addFormats(
  new Ajv2020({ allErrors: true, strict: false, validateSchema: true, code: { regExp: linearRegExp } }),
)
const compiled = new Map<string, ValidateFunction>()

/** Compiles a schema; throws a plain Error with ajv's message when it is not valid JSON Schema. */
export function compileDataSchema(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema)
  const key = createHash('sha256').update(text).digest('base64url')
  let validate = compiled.get(key)
  if (!validate) {
    // $id would register the schema globally in ajv; a template's schema is its own
    const { $id: _id, ...own } = schema
    validate = ajv.compile(own)
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string)
    compiled.set(key, validate)
  }
  return validate
}

/** Ajv's complaint when `schema` is not a usable JSON Schema, else undefined. */
export function dataSchemaError(schema: Record<string, unknown>): string | undefined {
  try {
    compileDataSchema(schema)
    return undefined
  } catch (err) {
    return (err as Error).message
  }
}

/** Each way `data` breaks the schema, as a JSON Pointer under `at` (e.g. `/data/customer/name`). */
export function dataProblems(schema: Record<string, unknown>, data: unknown, at: string): FieldProblem[] {
  const validate = compileDataSchema(schema)
  if (validate(data)) return []
  // the request's own formatter: the same pointers, union folding and wording as any 400
  return issuesToProblems(validate.errors ?? []).map((p) => ({ ...p, path: `${at}${p.path}` }))
}

/** 422 data_schema_mismatch listing every problem, when a schema is set and `data` breaks it. */
export function assertDataMatches(schema: Record<string, unknown> | null, data: unknown, at = '/data'): void {
  if (!schema) return
  let problems: FieldProblem[]
  try {
    problems = dataProblems(schema, data, at)
  } catch (err) {
    throw new ProblemError(
      'data_schema_mismatch',
      `The template's data schema is invalid: ${(err as Error).message}`,
    )
  }
  if (problems.length === 0) return
  const first = problems[0]!
  throw new ProblemError(
    'data_schema_mismatch',
    `data does not match the template's schema: ${first.path || '/'} ${first.message}`,
    { errors: problems },
  )
}
