import type { Finding } from '@docsvc/core/sdk'

// The PDF/UA-1 rules this step checks or cannot fix, with their ids as the veraPDF PDF/UA-1
// profile names them (clause-testNumber, /work/shared/verapdf-profiles/PDFUA-1.xml), so that
// a finding here and the validator's finding for the same rule read alike.

export const UA_RULES = {
  notTagged: { ruleId: '7.1-11', clause: '7.1' },
  untaggedContent: { ruleId: '7.1-3', clause: '7.1' },
  noTitle: { ruleId: '7.1-9', clause: '7.1' },
  noLanguage: { ruleId: '7.2-34', clause: '7.2' },
  badLanguage: { ruleId: '7.2-29', clause: '7.2' },
  figureWithoutAlt: { ruleId: '7.3-1', clause: '7.3' },
  linkNotTagged: { ruleId: '7.18.5-1', clause: '7.18.5' },
} as const

export type UaRule = keyof typeof UA_RULES

export function uaFinding(
  rule: UaRule,
  message: string,
  where: { page?: number; object?: string } = {},
): Finding {
  return {
    ...UA_RULES[rule],
    severity: 'error',
    message,
    ...(where.page !== undefined ? { page: where.page, location: `page ${where.page}` } : {}),
    ...(where.object !== undefined ? { object: where.object } : {}),
  }
}
