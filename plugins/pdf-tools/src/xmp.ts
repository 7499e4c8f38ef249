import { decodePDFRawStream, type PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import type { DocumentMetadata } from './pdf-info.ts'

// XMP kept in step with the Info dictionary (ISO 32000-2 §14.3.2 asks both to agree): after a
// metadata set the packet is written anew from the Info values. PDF/A and PDF/UA identification
// of the old packet is carried over, so a conforming file keeps its claim.

/**
 * The text without what XML 1.0 cannot carry even escaped (C0 controls but tab, LF and CR; U+FFFE,
 * U+FFFF; an unpaired surrogate becomes U+FFFD): a packet with one is not well-formed XML, which
 * PDF/A forbids (ISO 19005-2 6.6.2.1).
 */
function xmlText(value: string): string {
  return [...value.toWellFormed()]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0
      return code >= 0x20
        ? code !== 0xfffe && code !== 0xffff
        : code === 0x09 || code === 0x0a || code === 0x0d
    })
    .join('')
}

function xmlEscape(value: string): string {
  return xmlText(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

function existingPacket(doc: PDFDocument): string {
  const stream = doc.catalog.lookup(PDFName.of('Metadata'))
  if (!(stream instanceof PDFRawStream)) return ''
  try {
    return Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8')
  } catch {
    return ''
  }
}

/** The identification properties a PDF/A or PDF/UA step claims in the packet. */
export type ConformanceClaims = Partial<
  Record<'pdfaid:part' | 'pdfaid:conformance' | 'pdfaid:amd' | 'pdfuaid:part', string>
>

/**
 * The pdfaid:/pdfuaid: properties of a packet (attribute or element form), overlaid with the
 * claims a conformance step adds now, as elements.
 */
function conformanceClaims(packet: string, added: ConformanceClaims = {}): string[] {
  const claims = new Map<string, string>()
  const pattern = /(pdfa|pdfua)id:(part|conformance|amd|rev)(?:\s*=\s*"([^"]*)"|>([^<]*)<)/g
  for (const [, kind, name, attribute, element] of packet.matchAll(pattern)) {
    const value = (attribute ?? element ?? '').trim()
    if (value !== '') claims.set(`${kind}id:${name}`, value)
  }
  for (const [name, value] of Object.entries(added)) if (value !== undefined) claims.set(name, value)
  return [...claims].map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
}

/**
 * PDF/A allows in XMP only the schemas of the XMP specification and its own, unless a packet
 * describes the others in a PDF/A extension schema (ISO 19005-2 6.6.2.3): a PDF/A file that also
 * claims PDF/UA describes `pdfuaid` this way, as ISO 14289-1 asks.
 */
const PDFUA_EXTENSION = [
  '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">',
  '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">',
  '<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>',
  '<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>',
  '<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>',
  '<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">',
  '<pdfaProperty:name>part</pdfaProperty:name>',
  '<pdfaProperty:valueType>Integer</pdfaProperty:valueType>',
  '<pdfaProperty:category>internal</pdfaProperty:category>',
  '<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>',
  '</rdf:li></rdf:Seq></pdfaSchema:property>',
  '</rdf:li></rdf:Bag></pdfaExtension:schemas>',
  '</rdf:Description>',
]

export function xmpPacket(meta: DocumentMetadata, claims: string[]): string {
  const describesPdfua =
    claims.some((c) => c.startsWith('<pdfaid:')) && claims.some((c) => c.startsWith('<pdfuaid:'))
  const props: string[] = []
  const alt = (name: string, value: string | null) => {
    if (value !== null)
      props.push(
        `<${name}><rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(value)}</rdf:li></rdf:Alt></${name}>`,
      )
  }
  const simple = (name: string, value: string | null) => {
    if (value !== null) props.push(`<${name}>${xmlEscape(value)}</${name}>`)
  }
  alt('dc:title', meta.title)
  if (meta.author !== null)
    props.push(`<dc:creator><rdf:Seq><rdf:li>${xmlEscape(meta.author)}</rdf:li></rdf:Seq></dc:creator>`)
  alt('dc:description', meta.subject)
  if (meta.lang !== null)
    props.push(`<dc:language><rdf:Bag><rdf:li>${xmlEscape(meta.lang)}</rdf:li></rdf:Bag></dc:language>`)
  simple('pdf:Keywords', meta.keywords?.join(', ') ?? null)
  simple('pdf:Producer', meta.producer)
  simple('xmp:CreatorTool', meta.creator)
  simple('xmp:CreateDate', meta.created)
  simple('xmp:ModifyDate', meta.modified)
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">',
    ...props,
    ...claims,
    '</rdf:Description>',
    ...(describesPdfua ? PDFUA_EXTENSION : []),
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n')
}

/**
 * Replaces the document's XMP packet with one that says what the Info dictionary says, keeping
 * the packet's conformance claims and adding `claims` (the PDF/A and PDF/UA steps).
 */
export function writeXmp(doc: PDFDocument, meta: DocumentMetadata, claims: ConformanceClaims = {}): void {
  const packetClaims = conformanceClaims(existingPacket(doc), claims)
  const stream = doc.context.stream(Buffer.from(xmpPacket(meta, packetClaims), 'utf8'), {
    Type: 'Metadata',
    Subtype: 'XML',
  })
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream))
}
