import type { Finding } from '@docsvc/core/sdk'
import { computableCopy } from '../rules/computable.ts'
import { runBusinessRules } from '../rules/rule-engine.ts'
import type { Invoice } from './invoice-schema.ts'
import type { ProfileId } from './profile-matrix.ts'
import { completeInvoice } from './totals.ts'

// The model checks a profile runs before writing (SPEC 4.3 `einvoice_invalid`): the calculation
// rules (totals.ts) while completing the model, then the EN 16931 and BR-DE business rules
// (src/rules/) on the completed model, so a total computed from the lines counts as given.

export function checkInvoiceModel(invoice: Invoice, profile: ProfileId): Finding[] {
  let completed: ReturnType<typeof completeInvoice>
  try {
    completed = completeInvoice(invoice)
  } catch {
    // a blank amount (only a read invoice has one): the calculations run on what can be
    // computed, the business rules on the invoice as it is, so they name the blanks
    const copy = computableCopy(invoice)
    const calculated = copy ? completeInvoice(copy).findings : []
    return [...calculated, ...runBusinessRules(invoice, profile)]
  }
  return [...completed.findings, ...runBusinessRules(completed.invoice, profile)]
}
