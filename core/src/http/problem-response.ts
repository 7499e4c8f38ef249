import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { type ProblemCode, problemStatus, problemTitle } from '../kernel/problem-codes.ts'
import { ProblemError, problemFromCause, validationProblem } from '../kernel/problem-error.ts'
import { validationErrorsOf } from './validation-errors.ts'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export interface ProblemBody {
  type: string
  title: string
  status: number
  code: ProblemCode
  detail?: string
  request_id: string
  doc_url: string
  [field: string]: unknown
}

export function problemBody(err: ProblemError, requestId: string, docsUrl: string): ProblemBody {
  // headers go on the reply; the internal cause goes to the log only
  const { headers: _headers, internal: _internal, ...extras } = err.extras
  const url = `${docsUrl}/errors/${err.code}`
  return {
    type: url,
    title: problemTitle(err.code),
    status: problemStatus(err.code),
    code: err.code,
    ...(err.detail !== undefined ? { detail: err.detail } : {}),
    ...extras,
    request_id: requestId,
    doc_url: url,
  }
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  err: ProblemError,
  docsUrl: string,
) {
  const body = problemBody(err, request.id, docsUrl)
  for (const [name, value] of Object.entries(err.extras.headers ?? {})) reply.header(name, value)
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body))
}

// Fastify's own errors, said in our words: its messages name its internals (content-type parser
// registration, async constraints) rather than what the client can change.
const FASTIFY_CODES: Record<string, [ProblemCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'unsupported_media_type',
    'This endpoint does not take a body of that Content-Type; send application/json (uploads: multipart/form-data).',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The body is larger than this endpoint accepts.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The body is empty; send a JSON object.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'validation_error',
    'The body is not as long as its Content-Length header says.',
  ],
  FST_ERR_CTP_EMPTY_TYPE: ['unsupported_media_type', 'The Content-Type header is empty.'],
  FST_ERR_CTP_INVALID_TYPE: ['unsupported_media_type', 'The Content-Type header cannot be read.'],
  FST_ERR_BAD_URL: ['not_found', 'The path has a part that is not valid percent-encoding.'],
  FST_ERR_ASYNC_CONSTRAINT: ['validation_error', 'The request cannot be routed as sent.'],
}

const BY_STATUS: Record<number, ProblemCode> = {
  400: 'validation_error',
  401: 'authentication_required',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
}

/** Anything thrown on the request path, as the problem the client gets. */
export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error
  const err = error as FastifyError
  if (err?.validation) {
    return validationProblem(validationErrorsOf(err))
  }
  const mapped = err?.code ? FASTIFY_CODES[err.code] : undefined
  if (mapped) return problemFromCause(mapped[0], mapped[1], err)
  const status = err?.statusCode
  if (status && status >= 400 && status < 500) {
    const code = BY_STATUS[status] ?? 'validation_error'
    return problemFromCause(code, `${problemTitle(code)}.`, err)
  }
  return new ProblemError('internal_error', 'The service failed; the request id identifies it in our logs.')
}
