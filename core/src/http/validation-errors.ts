import type { FastifyError } from 'fastify'
import { type FieldProblem, type ProblemError, validationProblem } from '../kernel/problem-error.ts'

interface AjvIssue {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
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
  for (const issue of issues) {
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
      message = `must be one of ${(issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
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
