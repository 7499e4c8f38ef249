import type { Finding } from '@docsvc/core/sdk'

// What the PDF/A step could not make conforming, named like veraPDF's rules (clause and test
// number of ISO 19005-2/-3, e.g. `6.3.3-1`), so the step's findings and the validator's agree.

export function archiveFinding(
  clause: string,
  test: number,
  message: string,
  where: { page?: number; object?: string } = {},
): Finding {
  return { ruleId: `${clause}-${test}`, clause, severity: 'error', message, ...where }
}

/** `12 0 obj` for an indirect object, as findings name it. */
export function objectName(
  ref: { objectNumber: number; generationNumber: number } | undefined,
): string | undefined {
  return ref ? `${ref.objectNumber} ${ref.generationNumber} obj` : undefined
}
