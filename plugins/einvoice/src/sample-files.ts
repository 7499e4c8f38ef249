import { readdirSync } from 'node:fs'
import { join } from 'node:path'

// The official samples the tests read (../shared/einvoice, see its README for sources and
// licences), and the XSD entry points xmllint checks written XML against.

export const EINVOICE_SHARED = process.env.DOCSVC_EINVOICE_SAMPLES ?? '/work/shared/einvoice'

const xmlIn = (folder: string, filter: (name: string) => boolean = () => true) =>
  readdirSync(join(EINVOICE_SHARED, folder))
    .filter((n) => /\.xml$/i.test(n) && filter(n))
    .sort()
    .map((n) => join(EINVOICE_SHARED, folder, n))

const businessCases = (suffix: string) =>
  [
    'business-cases/standard',
    'business-cases/extension',
    'technical-cases/cius',
    'technical-cases/cvd',
  ].flatMap((folder) => xmlIn(`xrechnung-testsuite/${folder}`, (n) => n.endsWith(suffix)))

export const CII_SAMPLES = (): string[] => [...xmlIn('examples/cii'), ...businessCases('_uncefact.xml')]
export const UBL_SAMPLES = (): string[] => [
  ...xmlIn('examples/ubl'),
  ...xmlIn('examples/testfiles'),
  ...businessCases('_ubl.xml'),
]

export const XSD = {
  cii: join(
    EINVOICE_SHARED,
    'xsd/cii-d16b/uncoupled-clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd',
  ),
  ublInvoice: join(EINVOICE_SHARED, 'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd'),
  ublCreditNote: join(EINVOICE_SHARED, 'xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd'),
}
