import { isProblemCode, PROBLEM_CODES } from '../../core/src/kernel/problem-codes.ts'
import type { WireResponse } from './wire-client.ts'

export interface ProblemExpectation {
  /** exact status, or a check of it; any 4xx by default */
  status?: number | ((status: number) => boolean)
  /** the code must be one of these */
  codes?: readonly string[]
  /** HEAD: no body to look at */
  head?: boolean
}

export interface ProblemJson {
  type: string
  title: string
  status: number
  code: string
  request_id: string
  errors?: { path: string; code: string; message: string }[]
  [field: string]: unknown
}

/**
 * What every error answer must look like to a client (SPEC 7.1): a 4xx, problem+json, the
 * table's status and title for a known code, a type URI ending in the code, and the request id
 * of the X-Request-Id header. Returns the violations, so a barrage can report them all at once.
 */
export function problemViolations(res: WireResponse, expected: ProblemExpectation = {}): string[] {
  const out: string[] = []
  const { status } = res
  const statusOk =
    expected.status === undefined
      ? status >= 400 && status < 500
      : typeof expected.status === 'number'
        ? status === expected.status
        : expected.status(status)
  if (!statusOk) out.push(`status ${status}`)
  if (!/^application\/problem\+json(\s*;|$)/.test(res.headers['content-type'] ?? ''))
    out.push(`content-type ${res.headers['content-type']}`)
  const requestId = res.headers['x-request-id']
  if (!requestId) out.push('no X-Request-Id header')
  if (expected.head) return out
  let body: ProblemJson
  try {
    body = JSON.parse(res.body) as ProblemJson
  } catch {
    return [...out, `body is not JSON: ${res.body.slice(0, 120)}`]
  }
  if (body === null || typeof body !== 'object') return [...out, 'body is not an object']
  if (body.status !== status) out.push(`body status ${body.status} != HTTP ${status}`)
  if (typeof body.code !== 'string' || !isProblemCode(body.code)) {
    out.push(`code ${JSON.stringify(body.code)} is not in the table`)
  } else {
    const [tableStatus, tableTitle] = PROBLEM_CODES[body.code]
    if (tableStatus !== status) out.push(`code ${body.code} belongs to ${tableStatus}, sent with ${status}`)
    if (body.title !== tableTitle) out.push(`title ${JSON.stringify(body.title)} != ${tableTitle}`)
    if (
      typeof body.type !== 'string' ||
      !URL.canParse(body.type) ||
      !body.type.endsWith(`/errors/${body.code}`)
    )
      out.push(`type ${JSON.stringify(body.type)}`)
    if (expected.codes && !expected.codes.includes(body.code))
      out.push(`code ${body.code} not one of ${expected.codes.join(', ')}`)
  }
  if (body.request_id !== requestId) out.push(`request_id ${body.request_id} != header ${requestId}`)
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors)) out.push('errors is not an array')
    else {
      for (const e of body.errors.slice(0, 20)) {
        if (typeof e.path !== 'string' || !(e.path === '' || e.path.startsWith('/')))
          out.push(`error path ${e.path}`)
        if (typeof e.code !== 'string' || typeof e.message !== 'string')
          out.push('error without code/message')
      }
    }
  }
  const leaked = INTERNAL_TEXT.exec(res.body)
  if (leaked) out.push(`body carries a library's own words: ${JSON.stringify(leaked[0])}`)
  return out
}

/**
 * Words of Chromium, Fastify, qpdf and V8's JSON parser that a reviewer found in answers: they go
 * to the log as a problem's cause (problemFromCause), never into a body.
 */
const INTERNAL_TEXT =
  /Protocol error|printToPDF|FST_ERR|content-type parser|qpdf:|in JSON at position|Unexpected token|is not valid JSON but|must match a schema in anyOf|must be equal to constant/

export function problemOf(res: WireResponse): ProblemJson {
  return JSON.parse(res.body) as ProblemJson
}
