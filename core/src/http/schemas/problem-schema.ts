import { Type } from 'typebox'
import type { ProblemCode } from '../../kernel/problem-codes.ts'

/** RFC 9457 problem details as SPEC 7.1 fills them; used for every error response. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'URI of the error type; a page on the installation' }),
    title: Type.String({ description: 'short summary of the code' }),
    status: Type.Integer({ description: 'the HTTP status' }),
    code: Type.String({ description: 'stable machine-readable identifier; clients branch on it' }),
    detail: Type.Optional(Type.String({ description: 'specifics of this case' })),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON Pointer' }),
          code: Type.String(),
          message: Type.String(),
          in: Type.Optional(
            Type.Union([Type.Literal('query'), Type.Literal('path'), Type.Literal('header')]),
          ),
        }),
      ),
    ),
    render_id: Type.Optional(Type.String()),
    request_id: Type.String({ description: 'also sent as X-Request-Id' }),
    doc_url: Type.String({ format: 'uri' }),
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: true },
)

export const PROBLEM_MEDIA_TYPE = 'application/problem+json'

/** `(code \`a\`, \`b\`)`: how a problem response's description names the codes it carries. */
export function codesNote(codes: readonly string[]): string {
  return `(code ${codes.map((code) => `\`${code}\``).join(', ')})`
}

/**
 * An error response for a route's schema: problem+json whose body is the Problem schema. `codes`
 * are the codes it carries when the route knows them (they end its description, which is what
 * reaches the document); else the document lists every code the table gives its status
 * (openapi-problem-codes.ts).
 */
export function problemResponse(description: string, codes?: readonly ProblemCode[]) {
  return {
    description: codes ? `${description} ${codesNote(codes)}` : description,
    content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: 'Problem#' } } },
  }
}

/** The STD set of SPEC 4.1.4 (and 400), for route response maps. */
export function stdResponses() {
  return {
    400: problemResponse('Malformed or invalid request'),
    401: problemResponse('Missing, malformed, unknown, expired or revoked API key', [
      'authentication_required',
      'invalid_api_key',
      'api_key_expired',
      'api_key_revoked',
    ]),
    403: problemResponse('Insufficient scope, IP not allowed, workspace suspended or scheduled for deletion'),
    429: problemResponse('Rate limited; Retry-After says when to try again'),
  }
}
