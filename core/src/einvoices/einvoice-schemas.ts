import { Type } from 'typebox'
import { ConvenienceFields, SharedRenderFields } from '../renders/render-schemas.ts'
import { invoiceModelField } from './invoice-model-field.ts'

/** SPEC 4.3's six profiles, in the order of the standard's levels. */
export const SPEC_PROFILES = ['MINIMUM', 'BASIC_WL', 'BASIC', 'EN16931', 'EXTENDED', 'XRECHNUNG'] as const

/**
 * The body of POST /v1/einvoices (SPEC 4.3). The model's own schema is the profile's, checked
 * when the render is created (problems point into `/invoice`); the `profile` values are those
 * this installation's profile plugins registered, listed at boot.
 */
export function einvoiceBody(installed: readonly string[]) {
  const offered = installed.length > 0 ? installed.join(', ') : 'none (no e-invoice plugin is installed)'
  return Type.Object(
    {
      invoice: invoiceModelField('/invoice/lines/0/net_price'),
      profile: Type.String({
        minLength: 1,
        maxLength: 32,
        description: `The e-invoice profile: ${SPEC_PROFILES.join(', ')}. This installation offers: ${offered}.`,
        examples: ['EN16931'],
      }),
      syntax: Type.Optional(
        Type.Union([Type.Literal('cii'), Type.Literal('ubl')], {
          description:
            '`cii` (default): UN/CEFACT Cross Industry Invoice D16B; `ubl`: UBL 2.1 Invoice or CreditNote, only with EN16931 and XRECHNUNG.',
          examples: ['ubl'],
        }),
      ),
      filename: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
          description:
            'The XML file name; `.xml` is enforced and unsafe characters become `_`. Default: the invoice number plus `.xml`.',
          examples: ['RE-2026-0042.xml'],
        }),
      ),
      ...SharedRenderFields,
      expires_in: ConvenienceFields.expires_in,
    },
    { additionalProperties: false },
  )
}
