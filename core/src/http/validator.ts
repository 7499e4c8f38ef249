import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'

// ajv-formats is CommonJS with a default export
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

import type { FastifyInstance } from 'fastify'

function makeAjv(coerce: boolean): Ajv {
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

/**
 * Bodies are checked strictly (a string is never taken for a number); query strings, path
 * parameters and headers arrive as text and are coerced to their declared types.
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = makeAjv(false)
  const coercing = makeAjv(true)
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing
    return ajv.compile(schema)
  })
}
