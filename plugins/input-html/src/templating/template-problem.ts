import { ProblemError } from '@docsvc/core/sdk'
import { describeTemplateError, type TemplateErrorInfo } from './template-error.ts'

/**
 * The SPEC 7.3 problem for a template error: its code, a detail naming the template (`label`,
 * when a request has several, e.g. `head`) and the position, and `line`, `column` and `excerpt`
 * extras when the error has a position.
 */
export function templateProblemOf(info: TemplateErrorInfo, label?: string): ProblemError {
  const { position } = info
  const where = position ? ` (line ${position.line}, column ${position.column})` : ''
  const detail = `${label ? `${label}: ` : ''}${info.message}${where}`
  return new ProblemError(info.code, detail, position ? { ...position } : {})
}

/** The label of a template's errors: the caller's label and the partial at fault, if any. */
export function templateLabel(label: string | undefined, partial: string | undefined): string | undefined {
  const parts = [label, partial === undefined ? undefined : `partial "${partial}"`].filter(Boolean)
  return parts.length > 0 ? parts.join(': ') : undefined
}

/** Turns whatever a Liquid parse or render threw in this thread into its problem. */
export function templateProblem(err: unknown, label?: string): ProblemError {
  if (err instanceof ProblemError) return err
  return templateProblemOf(describeTemplateError(err), label)
}
