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

export function validationProblem(errors: FieldProblem[], detail?: string): ProblemError {
  const first = errors[0]
  const summary = detail ?? (first ? `${first.path || '/'}: ${first.message}` : 'Request is invalid')
  return new ProblemError('validation_error', summary, { errors })
}
