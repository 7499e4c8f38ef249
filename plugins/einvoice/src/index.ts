import { definePlugin } from '@docsvc/core/sdk'
import { EINVOICE_PROFILES } from './profiles.ts'

export type { Invoice } from './model/invoice-schema.ts'
export { PROFILE_IDS, type ProfileId } from './model/profile-matrix.ts'
export { completeInvoice } from './model/totals.ts'
export { einvoiceProfile } from './profiles.ts'
export { readInvoiceXml } from './read-invoice.ts'

/**
 * EN 16931 e-invoices (SPEC 4.3): the six profiles MINIMUM ... XRECHNUNG, each an entry of the
 * `einvoiceProfiles` registry that core's `POST /v1/einvoices` runs (model schema, model
 * checks, writer, XML validators).
 */
export const einvoicePlugin = definePlugin({
  id: 'einvoice',
  apiVersion: '^1',
  provides: { einvoiceProfiles: EINVOICE_PROFILES.map((p) => p.id) },
  register({ registries }) {
    for (const profile of EINVOICE_PROFILES) registries.einvoiceProfiles.add(profile.id, profile)
  },
})
