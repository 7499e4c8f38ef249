import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'

// ajv-formats is CommonJS with a default export
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

import type { FastifyInstance, FastifySchemaValidationError } from 'fastify'

/** The validator routes check requests with; tests check the document's examples with it too. */
export function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  })
  addFormats(ajv)
  return ajv
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null }

const DECIMAL = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ } as const

/** The top-level fields a query or path schema declares as integer or number. */
function numericFields(schema: unknown): [string, keyof typeof DECIMAL][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  return Object.entries(properties).flatMap(([name, field]) =>
    field.type === 'integer' || field.type === 'number'
      ? [[name, field.type] as [string, keyof typeof DECIMAL]]
      : [],
  )
}

/**
 * ajv's coercion takes any string JavaScript reads as a number: `0x10`, `1e2`, ` 12`. A number
 * in a query string or path is written in decimal digits; anything else is refused as a body's
 * wrong type is, with the same issue shape.
 */
function decimalOnly(schema: unknown, validate: Validate): Validate {
  const fields = numericFields(schema)
  if (fields.length === 0) return validate
  const checked: Validate = (data) => {
    const values = (data ?? {}) as Record<string, unknown>
    const issues = fields
      .filter(
        ([name, type]) => typeof values[name] === 'string' && !DECIMAL[type].test(values[name] as string),
      )
      .map(([name, type]) => ({
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}/type`,
        keyword: 'type',
        message: `must be ${type}`,
        params: { type },
      }))
    if (issues.length > 0) {
      checked.errors = issues
      return false
    }
    const ok = validate(data)
    checked.errors = validate.errors ?? null
    return ok
  }
  return checked
}

/**
 * Bodies are checked strictly (a string is never taken for a number); query strings, path
 * parameters and headers arrive as text and are coerced to their declared types.
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = makeAjv(false)
  const coercing = makeAjv(true)
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema)
    const validate = coercing.compile(schema) as Validate
    return httpPart === 'querystring' || httpPart === 'params' ? decimalOnly(schema, validate) : validate
  })
}
