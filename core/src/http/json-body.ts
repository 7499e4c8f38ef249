import type { FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import { causeText, ProblemError, problemFromCause } from '../kernel/problem-error.ts'

const MAX_DEPTH = 512

/** Nesting beyond MAX_DEPTH is refused before any handler walks it. */
function tooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92) i++
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 123 || ch === 91) {
      if (++depth > MAX_DEPTH) return true
    } else if (ch === 125 || ch === 93) depth--
  }
  return false
}

/**
 * JSON bodies: kept raw (idempotency fingerprints), parsed without prototype pollution, and
 * answered with `invalid_json` when they are not JSON.
 */
export function registerJsonBody(app: FastifyInstance): void {
  // Fastify's own text/plain parser would hand a string to JSON routes (400, not 415)
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser(
    /^application\/(json|[\w.+-]+\+json)(\s*;.*)?$/i,
    { parseAs: 'buffer' },
    (request, body, done) => {
      const buffer = body as unknown as Buffer
      request.rawBody = buffer
      const text = buffer.toString('utf8')
      if (text.trim() === '') {
        done(new ProblemError('invalid_json', 'The body is empty; send a JSON object.'), undefined)
        return
      }
      if (tooDeep(text)) {
        done(new ProblemError('invalid_json', `JSON nests deeper than ${MAX_DEPTH} levels.`), undefined)
        return
      }
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }))
      } catch (err) {
        done(
          problemFromCause('invalid_json', `The body is not valid JSON${whereParsingStopped(err)}.`, err),
          undefined,
        )
      }
    },
  )
}

/** Where the parser gave up, from its message (` at line 1, column 10`); the rest is its own words. */
function whereParsingStopped(err: unknown): string {
  const text = causeText(err)
  const lineColumn = /line (\d+) column (\d+)/.exec(text)
  if (lineColumn) return ` at line ${lineColumn[1]}, column ${lineColumn[2]}`
  const position = /position (\d+)/.exec(text)
  return position ? ` at character ${Number(position[1]) + 1}` : ''
}
