import type { ProfileId } from '../model/profile-matrix.ts'

// What a hybrid (Factur-X / ZUGFeRD) PDF says about its XML, per profile (Factur-X 1.07 §6,
// ZUGFeRD 2.3): the embedded file's name, its AFRelationship, and the ConformanceLevel the XMP
// names. MINIMUM and BASIC WL are not full invoices (no lines), so the XML is `Data` beside the
// visible invoice; from BASIC on it is an `Alternative` of it.

export interface HybridFacts {
  filename: 'factur-x.xml' | 'xrechnung.xml'
  relationship: 'Data' | 'Alternative'
  /** fx:ConformanceLevel as Factur-X writes it */
  conformanceLevel: string
}

const LEVEL_NAMES: Record<ProfileId, string> = {
  MINIMUM: 'MINIMUM',
  BASIC_WL: 'BASIC WL',
  BASIC: 'BASIC',
  EN16931: 'EN 16931',
  EXTENDED: 'EXTENDED',
  XRECHNUNG: 'XRECHNUNG',
}

export function hybridFacts(profile: ProfileId): HybridFacts {
  return {
    filename: profile === 'XRECHNUNG' ? 'xrechnung.xml' : 'factur-x.xml',
    relationship: profile === 'MINIMUM' || profile === 'BASIC_WL' ? 'Data' : 'Alternative',
    conformanceLevel: LEVEL_NAMES[profile],
  }
}
