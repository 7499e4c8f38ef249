import { definePlugin } from '@docsvc/core/sdk'
import { facturxProcessor } from './hybrid/facturx-processor.ts'
import { PROFILE_IDS } from './model/profile-matrix.ts'
import { einvoiceProfiles } from './profiles.ts'
import { einvoiceXmlValidators } from './validation/index.ts'

export type { Invoice } from './model/invoice-schema.ts'
export { PROFILE_IDS, type ProfileId } from './model/profile-matrix.ts'
export { completeInvoice } from './model/totals.ts'
export { einvoiceProfile } from './profiles.ts'
export { readInvoiceXml } from './read-invoice.ts'

/**
 * EN 16931 e-invoices (SPEC 4.3): the six profiles MINIMUM ... XRECHNUNG, each an entry of the
 * `einvoiceProfiles` registry that core's `POST /v1/einvoices` runs (model schema, model
 * checks, writer, XML validators: the official XSDs, and the operator's validator daemon when
 * `DOCSVC_EINVOICE_VALIDATOR_URL` names one), and the step that embeds the XML in a hybrid
 * PDF/A-3b (Factur-X).
 */
export const einvoicePlugin = definePlugin({
  id: 'einvoice',
  apiVersion: '^1',
  provides: { einvoiceProfiles: [...PROFILE_IDS], pdfPostProcessors: [facturxProcessor.id] },
  register({ registries, host }) {
    for (const profile of einvoiceProfiles(einvoiceXmlValidators(host.einvoice)))
      registries.einvoiceProfiles.add(profile.id, profile)
    // the `embed` step of hybrid PDFs (`output.einvoice`, decision 0117)
    registries.pdfPostProcessors.add(facturxProcessor.id, facturxProcessor)
  },
})
