import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeAjv } from '../../core/src/http/validator.ts'
import { startTestKernel, type TestKernel } from '../../core/src/testing/index.ts'
import { type OpenApiDocument, operationsOf } from './openapi-document.ts'
import { fieldsWithoutExamples, refusedExamples } from './openapi-examples.ts'
import { servedDocument } from './served-document.ts'

// Issue 15: every request field of every operation shows an example, and the example is a value
// the API takes. The rule (in full at the top of openapi-examples.ts): a field counts when it has
// `example` or `examples`, or has one fixed value (a discriminator), or is an object whose named
// properties each count, an array whose items count, or a union whose non-null branches count;
// a map, an enum of several values and a boolean need their own. The examples are written where the
// field is defined (core's route schemas, the plugin that owns an option), so the served document
// is what is checked. The document does not depend on the database: one dialect is enough.

describe('the OpenAPI document gives every request field an example', () => {
  let t: TestKernel
  let doc: OpenApiDocument

  beforeAll(async () => {
    t = await startTestKernel()
    doc = (await servedDocument(t)).doc
  })
  afterAll(() => t?.close())

  it('has an example on every parameter and body field of every operation', () => {
    const missing = [...operationsOf(doc)].flatMap(([path, method, operation]) =>
      fieldsWithoutExamples(doc, operation).map((where) => `${method.toUpperCase()} ${path} ${where}`),
    )
    expect(missing).toEqual([])
  })

  it('has no example that the field it documents would refuse', () => {
    // the body validator of the app: strict types, no coercion
    const ajv = makeAjv(false)
    const refused = [...operationsOf(doc)].flatMap(([path, method, operation]) =>
      refusedExamples(ajv, doc, operation).map((what) => `${method.toUpperCase()} ${path} ${what}`),
    )
    expect(refused).toEqual([])
  })

  it('would see a missing or a wrong example (the checks can fail)', () => {
    const operation = {
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 }, example: 500 },
        { name: 'cursor', in: 'query', schema: { type: 'string' } },
      ],
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                kind: { const: 'html' },
                landscape: { type: 'boolean' },
                format: { anyOf: [{ const: 'A4' }, { const: 'A3' }] },
                margin: {
                  anyOf: [
                    { type: 'object', properties: { top: { type: 'number', examples: [10] } } },
                    { type: 'null' },
                  ],
                },
                tags: { type: 'array', items: { type: 'string', examples: ['x', 7] } },
                data: { type: 'object', additionalProperties: {} },
              },
            },
          },
        },
      },
      responses: {},
    }
    expect(fieldsWithoutExamples(doc, operation)).toEqual([
      'query:cursor',
      'body/landscape',
      'body/format',
      'body/data',
    ])
    expect(refusedExamples(makeAjv(false), doc, operation)).toEqual([
      'query:limit 500: data must be <= 100',
      'body/tags items examples[1] 7: data must be string',
    ])
  })
})
