import {
  type EinvoiceProfile,
  type EinvoiceSyntax,
  type EinvoiceXmlValidator,
  einvoiceFilename,
  ProblemError,
} from '@docsvc/core/sdk'
import { writeCii } from './cii/cii-writer.ts'
import type { Invoice } from './model/invoice-schema.ts'
import { checkInvoiceModel } from './model/model-checks.ts'
import { carriedPart, PROFILE_IDS, type ProfileId, profileSchema } from './model/profile-matrix.ts'
import { completeInvoice } from './model/totals.ts'
import { writeUbl } from './ubl/ubl-writer.ts'

// The six profiles of SPEC 4.3 as EinvoiceProfile entries. UBL only for EN16931 and XRECHNUNG;
// the others are CII only (Factur-X/ZUGFeRD define them for CII).

const UBL_PROFILES: readonly ProfileId[] = ['EN16931', 'XRECHNUNG']

export function syntaxesOf(profile: ProfileId): EinvoiceSyntax[] {
  return UBL_PROFILES.includes(profile) ? ['cii', 'ubl'] : ['cii']
}

/** A profile; `xmlValidators` are the installation's (src/validation: XSD, the operator's daemon). */
export function einvoiceProfile(
  id: ProfileId,
  xmlValidators: readonly EinvoiceXmlValidator[] = [],
): EinvoiceProfile<Invoice> {
  const syntaxes = syntaxesOf(id)
  return {
    id,
    syntaxes,
    modelSchema: profileSchema(id),
    checkModel: (model) => checkInvoiceModel(model, id),
    writeXml(model, options) {
      if (!syntaxes.includes(options.syntax))
        throw new ProblemError(
          'validation_error',
          `profile ${id} is written as ${syntaxes.join(' or ')}, not ${options.syntax}`,
        )
      const invoice = carriedPart(completeInvoice(model).invoice, id)
      return options.syntax === 'cii' ? writeCii(invoice, id, options) : writeUbl(invoice, id, options)
    },
    xmlValidators,
    filename: (model, requested) => einvoiceFilename(requested, model.number),
  }
}

/** The six profiles, each checked after writing by `xmlValidators` (core runs those of the XML's syntax). */
export function einvoiceProfiles(xmlValidators: readonly EinvoiceXmlValidator[]): EinvoiceProfile<Invoice>[] {
  return PROFILE_IDS.map((id) => einvoiceProfile(id, xmlValidators))
}
