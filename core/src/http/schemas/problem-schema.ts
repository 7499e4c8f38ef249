import { Type } from 'typebox'

/** RFC 9457 problem details as SPEC 7.1 fills them; used for every error response. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String(),
    detail: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON Pointer' }),
          code: Type.String(),
          message: Type.String(),
          in: Type.Optional(Type.String()),
        }),
      ),
    ),
    render_id: Type.Optional(Type.String()),
    request_id: Type.String(),
    doc_url: Type.String(),
  },
  { $id: 'Problem', additionalProperties: true },
)

/** The STD set of SPEC 4.1.4, for route response maps. */
export function stdResponses(): Record<number, unknown> {
  const ref = { $ref: 'Problem#', description: 'problem+json' }
  return { 400: ref, 401: ref, 403: ref, 429: ref }
}
