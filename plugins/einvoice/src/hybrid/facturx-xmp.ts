import type { HybridFacts } from './facturx.ts'

// The Factur-X XMP block (Factur-X 1.07 §6.2.2) and its PDF/A extension schema description: PDF/A
// allows a schema outside the XMP specification only when the packet describes it (ISO 19005-3
// 6.6.2.3), so the fx: properties come with their pdfaExtension description, as the Factur-X
// specification's sample packet gives it.

export const FACTURX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#'

const property = (name: string, description: string) =>
  [
    '<rdf:li rdf:parseType="Resource">',
    `<pdfaProperty:name>${name}</pdfaProperty:name>`,
    '<pdfaProperty:valueType>Text</pdfaProperty:valueType>',
    '<pdfaProperty:category>external</pdfaProperty:category>',
    `<pdfaProperty:description>${description}</pdfaProperty:description>`,
    '</rdf:li>',
  ].join('')

/** the schema's entry in a pdfaExtension:schemas bag */
const SCHEMA_ENTRY = [
  '<rdf:li rdf:parseType="Resource">',
  '<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>',
  `<pdfaSchema:namespaceURI>${FACTURX_NS}</pdfaSchema:namespaceURI>`,
  '<pdfaSchema:prefix>fx</pdfaSchema:prefix>',
  '<pdfaSchema:property><rdf:Seq>',
  property('DocumentFileName', 'The name of the embedded XML document'),
  property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'),
  property('Version', 'The actual version of the standard applying to the embedded XML document'),
  property('ConformanceLevel', 'The conformance level of the embedded XML document'),
  '</rdf:Seq></pdfaSchema:property>',
  '</rdf:li>',
].join('')

const EXTENSION_OPEN =
  '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">'

/**
 * The packet with the fx: properties and their description added. A packet that already
 * describes extension schemas (pdfuaid) gets the entry in its bag, so the packet keeps one
 * pdfaExtension:schemas property. A packet that already says fx: is returned unchanged.
 */
export function withFacturxXmp(packet: string, facts: HybridFacts): string {
  if (packet.includes(FACTURX_NS)) return packet
  const end = packet.lastIndexOf('</rdf:RDF>')
  if (end < 0) throw new Error('the XMP packet has no rdf:RDF element')
  const fx = [
    `<rdf:Description rdf:about="" xmlns:fx="${FACTURX_NS}">`,
    '<fx:DocumentType>INVOICE</fx:DocumentType>',
    `<fx:DocumentFileName>${facts.filename}</fx:DocumentFileName>`,
    '<fx:Version>1.0</fx:Version>',
    `<fx:ConformanceLevel>${facts.conformanceLevel}</fx:ConformanceLevel>`,
    '</rdf:Description>',
  ].join('\n')
  const bag = '<pdfaExtension:schemas><rdf:Bag>'
  const at = packet.indexOf(bag)
  if (at >= 0 && at < end) {
    const withEntry = `${packet.slice(0, at + bag.length)}${SCHEMA_ENTRY}${packet.slice(at + bag.length)}`
    const close = withEntry.lastIndexOf('</rdf:RDF>')
    return `${withEntry.slice(0, close)}${fx}\n${withEntry.slice(close)}`
  }
  const extension = [
    EXTENSION_OPEN,
    `${bag}${SCHEMA_ENTRY}</rdf:Bag></pdfaExtension:schemas>`,
    '</rdf:Description>',
  ]
  return `${packet.slice(0, end)}${fx}\n${extension.join('\n')}\n${packet.slice(end)}`
}
