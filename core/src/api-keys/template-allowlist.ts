import { ProblemError } from '../kernel/problem-error.ts'
import type { AuthContext } from './api-key-service.ts'

/**
 * SPEC 2.3 / Part 5.6: a key with a template allowlist may only use those templates. Every
 * route that names a template (renders, batches, previews, signed links) calls this.
 */
export function assertTemplateAllowed(auth: AuthContext, templateId: string): void {
  const allowed = auth.key.template_allowlist
  if (allowed && !allowed.includes(templateId)) {
    throw new ProblemError('template_not_allowed_for_key', `This key may not use template ${templateId}.`)
  }
}
