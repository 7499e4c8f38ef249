import { allowedMethods } from './allowed-methods.ts'
import type { RouteEntry } from './route-inventory.ts'
import { PROBLEM_MEDIA_TYPE } from './schemas/problem-schema.ts'

// A path answers a method it does not take with 405 and `Allow` (app.ts's not-found handler).
// OpenAPI documents responses per operation only, so every operation of a path gets the 405 a
// wrong method at that path answers, with the exact `Allow` it carries. The value comes from
// the same function and the same route inventory the handler uses, so the two cannot differ.

type Json = Record<string, unknown>

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The document's component the app's problem bodies are (the Problem schema's $id). */
const PROBLEM = { $ref: '#/components/schemas/Problem' }

function methodNotAllowed(allow: string): Json {
  return {
    // documentProblemCodes adds the code (method_not_allowed, the table's one 405)
    description: `The path does not take the method the request used: ${allow} only.`,
    headers: {
      Allow: {
        description: 'The methods the path takes.',
        schema: { type: 'string', const: allow },
        example: allow,
      },
    },
    content: { [PROBLEM_MEDIA_TYPE]: { schema: PROBLEM } },
  }
}

/** The document with a 405 on every operation: what a method its path does not take answers. */
export function documentMethodNotAllowed<T>(document: T, routes: readonly RouteEntry[]): T {
  const doc = document as Json
  const paths = (doc.paths ?? {}) as Record<string, Json>
  const filled = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      // a `{param}` segment is passed as it is: it equals no fixed segment and matches every
      // `:param`, as any value a client sends there would
      const response = methodNotAllowed(allowedMethods(routes, path).join(', '))
      return [
        path,
        Object.fromEntries(
          Object.entries(item).map(([key, operation]) => {
            if (!METHODS.includes(key)) return [key, operation]
            const op = operation as Json
            return [key, { ...op, responses: { ...(op.responses as Json), 405: response } }]
          }),
        ),
      ]
    }),
  )
  return { ...doc, paths: filled } as T
}
