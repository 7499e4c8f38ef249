import { readFileSync } from 'node:fs'
import { type PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib'

// The sRGB OutputIntent (ISO 19005-2 6.2.3): Chromium draws in DeviceRGB (and soft masks in
// DeviceGray), which PDF/A allows only with an RGB output intent (6.2.4.3). The profile is the
// sRGB ICC v2 monitor profile of Debian's icc-profiles-free (zlib licence, decision 0100),
// shipped next to this file with its licence.

const PROFILE = readFileSync(new URL('./srgb.icc', import.meta.url))
const CONDITION = 'sRGB IEC61966-2.1'

/** Sets the catalog's /OutputIntents to the one sRGB PDF/A intent (one profile for all, 6.2.3-2). */
export function setOutputIntent(doc: PDFDocument): void {
  const { context } = doc
  const profile = context.register(context.flateStream(PROFILE, { N: 3 }))
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(CONDITION),
    Info: PDFString.of(CONDITION),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: profile,
  })
  doc.catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]))
}
