import type { FastifyError } from 'fastify'
import { type FieldProblem, type ProblemError, validationProblem } from '../kernel/problem-error.ts'
import { type AjvIssue, collapseAlternatives } from './alternative-issues.ts'

const KINDS: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  null: 'null',
}

/**
 * The one wording of "this field takes these values", for schema errors and the checks that
 * know their values at run time (input types, formats): `must be one of: A4, Letter (or null)`.
 */
export function oneOfMessage(values: readonly unknown[], otherTypes: readonly string[] = []): string {
  const listed = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
  const others = otherTypes.map((t) => KINDS[t] ?? t).join(' or ')
  if (values.length === 0) return `must be ${others}`
  return others ? `must be one of: ${listed} (or ${others})` : `must be one of: ${listed}`
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

const PARTS: Record<string, FieldProblem['in']> = {
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

/** Ajv issues as SPEC 7.1 `errors[]`: a JSON Pointer to the field, a code and a message. */
/** A body with a million bad items gets the first hundred problems, not a 65 MB answer. */
export const MAX_REPORTED_PROBLEMS = 100

export function issuesToProblems(issues: AjvIssue[], context?: string): FieldProblem[] {
  const where = context ? PARTS[context] : undefined
  const seen = new Set<string>()
  const out: FieldProblem[] = []
  for (const issue of collapseAlternatives(issues)) {
    if (out.length >= MAX_REPORTED_PROBLEMS) break
    let path = issue.instancePath
    let message = issue.message ?? 'is invalid'
    let code = issue.keyword
    if (issue.keyword === 'required') {
      path = `${path}/${escapePointer(String(issue.params.missingProperty))}`
      message = 'is required'
      code = 'required'
    } else if (issue.keyword === 'additionalProperties') {
      path = `${path}/${escapePointer(String(issue.params.additionalProperty))}`
      message = 'is not a known field'
      code = 'unknown_field'
    } else if (issue.keyword === 'enum') {
      message = oneOfMessage(
        issue.params.allowedValues as unknown[],
        (issue.params.otherTypes as string[] | undefined) ?? [],
      )
    }
    const key = `${path}|${code}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ path, code, message, ...(where ? { in: where } : {}) })
  }
  return out
}

export function validationErrorsOf(err: FastifyError): FieldProblem[] {
  return issuesToProblems((err.validation ?? []) as AjvIssue[], err.validationContext)
}

export function ajvIssuesProblem(issues: AjvIssue[], context?: string): ProblemError {
  return validationProblem(issuesToProblems(issues, context))
}
