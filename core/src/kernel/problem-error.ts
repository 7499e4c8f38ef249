import type { ProblemCode } from './problem-codes.ts'

/** One validation problem: where (JSON Pointer), what (code) and a readable message. */
export interface FieldProblem {
  path: string
  code: string
  message: string
  /** request part the pointer is relative to, when not the body */
  in?: 'query' | 'path' | 'header'
}

export interface ProblemExtras {
  errors?: FieldProblem[]
  headers?: Record<string, string>
  /** what a library, the browser or a tool said (see problemFromCause): logged, never sent */
  internal?: string
  [field: string]: unknown
}

/** Thrown anywhere; the HTTP layer alone turns it into application/problem+json. */
export class ProblemError extends Error {
  readonly code: ProblemCode
  readonly detail: string | undefined
  readonly extras: ProblemExtras

  constructor(code: ProblemCode, detail?: string, extras: ProblemExtras = {}) {
    super(detail ?? code)
    this.name = 'ProblemError'
    this.code = code
    this.detail = detail
    this.extras = extras
  }
}

/**
 * What a tenant reads about a failure that is not a ProblemError: its own message may name
 * files, addresses or queries of the installation, so it goes to the log and not to them.
 */
export const INTERNAL_FAILURE_MESSAGE = 'The service failed while working on it; the failure is logged.'

/** The first line of a thrown thing's message, bounded: what goes to the log as a cause. */
export function causeText(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause)
  return (text.split('\n')[0] ?? text).slice(0, 500)
}

/**
 * A problem caused by a library, Chromium or a tool (qpdf) failing. The client reads `detail`,
 * written for them in terms of their request; the cause's own words ("Protocol error
 * (Page.printToPDF)", qpdf's stderr) may name internals and help nobody fix a request, so they
 * ride along as `internal`, which the HTTP layer and the render runner log (with the request or
 * render id) and never put in a body.
 */
export function problemFromCause(
  code: ProblemCode,
  detail: string,
  cause: unknown,
  extras: ProblemExtras = {},
): ProblemError {
  return new ProblemError(code, detail, { ...extras, internal: causeText(cause) })
}

export function validationProblem(errors: FieldProblem[], detail?: string): ProblemError {
  const first = errors[0]
  const summary = detail ?? (first ? `${first.path || '/'}: ${first.message}` : 'Request is invalid')
  return new ProblemError('validation_error', summary, { errors })
}
