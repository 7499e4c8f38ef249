import type { Finding } from '@docsvc/core/sdk'
import type { Invoice } from '../model/invoice-schema.ts'
import { fieldStatus, type ProfileId } from '../model/profile-matrix.ts'
import { CO_OCCURRENCE_RULES } from './co-occurrence-rules.ts'
import { MANDATORY_RULES } from './mandatory-rules.ts'
import type { Rule } from './rule.ts'
import { VAT_CATEGORY_RULES } from './vat-category-rules.ts'
import { XRECHNUNG_RULES } from './xrechnung-rules.ts'

// The one place the business rules run: every rule the profile runs, over the completed model.

export const BUSINESS_RULES: readonly Rule[] = [
  ...MANDATORY_RULES,
  ...CO_OCCURRENCE_RULES,
  ...VAT_CATEGORY_RULES,
  ...XRECHNUNG_RULES,
]

/** A rule runs where the profile writes its field (MINIMUM and BASIC_WL write no lines). */
export function runsIn(rule: Rule, profile: ProfileId): boolean {
  if (rule.profiles && !rule.profiles.includes(profile)) return false
  if (rule.field === '') return true
  const status = fieldStatus(rule.field, profile, false)
  return status === 'required' || status === 'optional'
}

export function runBusinessRules(invoice: Invoice, profile: ProfileId): Finding[] {
  return BUSINESS_RULES.filter((rule) => runsIn(rule, profile)).flatMap((rule) =>
    [...new Set(rule.violations(invoice))].map((location) => ({
      ruleId: rule.id,
      severity: rule.severity,
      location,
      message: rule.message,
    })),
  )
}
