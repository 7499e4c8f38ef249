import type { Finding } from '@docsvc/core/sdk'
import type { Invoice } from './invoice-schema.ts'
import type { ProfileId } from './profile-matrix.ts'
import { completeInvoice } from './totals.ts'

// The model checks a profile runs before writing (SPEC 4.3 `einvoice_invalid`): for now the
// calculation rules (totals.ts) and the totals every profile needs, which must be given when
// there are no lines to compute them from. The other EN 16931 and BR-DE rules come next.

const REQUIRED_TOTALS = [
  ['line_total', 'BR-12', 'Sum of invoice line net amount (BT-106)'],
  ['tax_exclusive', 'BR-13', 'Invoice total amount without VAT (BT-109)'],
  ['tax_inclusive', 'BR-14', 'Invoice total amount with VAT (BT-112)'],
  ['due_payable', 'BR-15', 'Amount due for payment (BT-115)'],
] as const

/** MINIMUM and BASIC_WL carry no lines, so BT-106 is not theirs to require. */
const WITHOUT_LINE_TOTAL: readonly ProfileId[] = ['MINIMUM']

export function checkInvoiceModel(invoice: Invoice, profile: ProfileId): Finding[] {
  const { invoice: completed, findings } = completeInvoice(invoice)
  for (const [key, ruleId, what] of REQUIRED_TOTALS) {
    if (key === 'line_total' && WITHOUT_LINE_TOTAL.includes(profile)) continue
    if (completed.totals?.[key] === undefined)
      findings.push({
        ruleId,
        severity: 'error',
        location: `/totals/${key}`,
        message: `${what} is required: give it, or give the lines it is computed from`,
      })
  }
  if (profile !== 'MINIMUM' && (completed.vat_breakdown ?? []).length === 0)
    findings.push({
      ruleId: 'BR-CO-18',
      severity: 'error',
      location: '/vat_breakdown',
      message:
        'An invoice needs at least one VAT breakdown (BG-23): give it, or give the lines it is computed from',
    })
  return findings
}
