import type { EinvoiceXmlValidator } from '@docsvc/core/sdk'
import { kositValidator } from './kosit-validator.ts'
import { xsdValidator } from './xsd-validator.ts'

export { KOSIT_SOURCE, type KositValidatorOptions, kositValidator } from './kosit-validator.ts'
export { ENTRY_POINTS, SHIPPED_SCHEMAS } from './xsd-schemas.ts'
export {
  ciiXsdValidator,
  ublXsdValidator,
  XSD_RULE,
  type XsdValidatorOptions,
  xsdValidator,
} from './xsd-validator.ts'

/** The installation's e-invoice settings, as the kernel lends them to plugins (`host.einvoice`). */
export interface EinvoiceValidationSettings {
  /** DOCSVC_EINVOICE_ARTIFACTS: newer schemas; empty for the shipped ones */
  artifactsDir: string
  /** DOCSVC_EINVOICE_VALIDATOR_URL: the operator's KoSIT daemon; empty for none */
  validatorUrl: string
}

/**
 * Every XML validator of this installation, for a profile's `xmlValidators` (the core runs those
 * of the XML's syntax): the XSD of CII and of UBL, and the operator's KoSIT daemon when one is
 * configured. Built once in the plugin's register(); a wrong setting fails the start.
 */
export function einvoiceXmlValidators(settings: EinvoiceValidationSettings): EinvoiceXmlValidator[] {
  const artifacts = settings.artifactsDir ? { artifactsDir: settings.artifactsDir } : {}
  return [
    xsdValidator('cii', artifacts),
    xsdValidator('ubl', artifacts),
    ...(settings.validatorUrl ? [kositValidator({ url: settings.validatorUrl })] : []),
  ]
}
