import type { Invoice } from './model/invoice-schema.ts'
import type { ProfileId } from './model/profile-matrix.ts'

// BT-24 (specification identifier) of each profile: CII's GuidelineSpecifiedDocumentContext-
// Parameter and UBL's CustomizationID. Factur-X 1.0 / ZUGFeRD 2.x for the first five, the
// XRechnung 3.0 CIUS for XRECHNUNG.
export const GUIDELINE_IDS: Record<ProfileId, string> = {
  MINIMUM: 'urn:factur-x.eu:1p0:minimum',
  BASIC_WL: 'urn:factur-x.eu:1p0:basicwl',
  BASIC: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  EN16931: 'urn:cen.eu:en16931:2017',
  EXTENDED: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
  XRECHNUNG: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
}

/** The profile a read document declares, when its BT-24 is one of ours. */
export function profileOfGuideline(id: string | undefined): ProfileId | undefined {
  const entry = Object.entries(GUIDELINE_IDS).find(([, g]) => g === id)
  return entry?.[0] as ProfileId | undefined
}

/** The TEST note (BT-22) a test render carries first (SPEC 4.3). */
export const TEST_NOTE = 'TEST: this invoice was made with a test key and is not valid for payment or tax.'

/** BG-1 as written: a test render's TEST note first, for every profile that has notes. */
export function writtenNotes(inv: Invoice, profile: ProfileId, test: boolean): NonNullable<Invoice['notes']> {
  return [...(test && profile !== 'MINIMUM' ? [{ text: TEST_NOTE }] : []), ...(inv.notes ?? [])]
}
