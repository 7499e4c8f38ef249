import { definePlugin } from '@docsvc/core/sdk'
import {
  configureValidatorWorkers,
  stopValidatorWorkers,
  ValidatorConfigSchema,
} from './validator-workers.ts'
import { pdfaValidator, pdfuaValidator } from './validators.ts'

export { pdfaValidator, pdfuaValidator, VALIDATOR_SOURCE } from './validators.ts'

/**
 * The built-in PDF/A-2b, PDF/A-3b and PDF/UA-1 checker: veraPDF's validation profiles (shipped as
 * data in ../profiles) evaluated over our own model of the PDF, in killable worker threads.
 */
export const pdfValidatorPlugin = definePlugin({
  id: 'pdf-validator',
  apiVersion: '^1',
  provides: { conformanceValidators: [pdfaValidator.id, pdfuaValidator.id] },
  config: ValidatorConfigSchema,
  register({ registries, config }) {
    configureValidatorWorkers(config)
    registries.conformanceValidators.add(pdfaValidator.id, pdfaValidator)
    registries.conformanceValidators.add(pdfuaValidator.id, pdfuaValidator)
  },
  async stop() {
    await stopValidatorWorkers()
  },
})
