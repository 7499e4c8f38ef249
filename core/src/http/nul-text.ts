import type { FastifyInstance } from 'fastify'
import { type FieldProblem, validationProblem } from '../kernel/problem-error.ts'

// PostgreSQL text cannot hold U+0000: a NUL in an id, a name or a filter reached the database as
// an error (500) on PostgreSQL while SQLite took it. No field of the API needs the character, so
// every request is held to one rule on both databases: text in the path, the query string or a
// JSON body (keys included) without NUL, else 400 validation_error pointing at the field.

const NUL = '\u0000'
const MAX_REPORTED = 20

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

function walk(value: unknown, path: string, out: FieldProblem[], where?: FieldProblem['in']): void {
  if (out.length >= MAX_REPORTED) return
  const problem = (at: string) =>
    out.push({
      path: at,
      code: 'nul_character',
      message: 'must not contain U+0000 (NUL)',
      ...(where ? { in: where } : {}),
    })
  if (typeof value === 'string') {
    if (value.includes(NUL)) problem(path)
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) walk(item, `${path}/${i}`, out, where)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}/${escapePointer(key)}`
      if (key.includes(NUL)) problem(at)
      walk(item, at, out, where)
    }
  }
}

export function registerNulTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problems: FieldProblem[] = []
    walk(request.params, '', problems, 'path')
    walk(request.query, '', problems, 'query')
    // JSON can only carry a NUL escaped: without the escape in the raw bytes there is none to find
    if (request.rawBody?.includes('\\u0000')) walk(request.body, '', problems)
    if (problems.length > 0) throw validationProblem(problems)
  })
}
