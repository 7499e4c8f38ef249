import { type ConformanceProfile, type ConformanceValidator, conformanceReport } from '@docsvc/core/sdk'
import { runValidation } from './validator-workers.ts'

// The built-in checkers of the veraPDF profiles: one per report key. Their verdict's source is
// `docsvc`; an external veraPDF (wiring) names its own.

export const VALIDATOR_SOURCE = 'docsvc'

function validator(
  id: string,
  reportKey: string,
  profiles: readonly ConformanceProfile[],
): ConformanceValidator {
  return {
    id,
    reportKey,
    profiles,
    async validate(pdf, { signal, profile }) {
      if (!profiles.includes(profile)) throw new Error(`${id} checks ${profiles.join(', ')}, not ${profile}`)
      const out = await runValidation(pdf, profile, signal)
      const findings = out.unreadable
        ? [
            {
              ruleId: 'pdf-structure',
              severity: 'error' as const,
              message: `The file cannot be read as a PDF: ${out.unreadable}`,
            },
          ]
        : out.findings
      return conformanceReport(findings, {
        profile,
        source: VALIDATOR_SOURCE,
        rulesChecked: out.rulesChecked,
      })
    },
  }
}

export const pdfaValidator = validator('docsvc-pdfa', 'pdfa', ['pdfa-2b', 'pdfa-3b'])
export const pdfuaValidator = validator('docsvc-pdfua', 'pdfua', ['pdfua-1'])
