import type { PDFDict } from '@cantoo/pdf-lib'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { Values } from './pdf-values.ts'
import { readXmp, type XmpPacket, type XmpProperty } from './xmp-rdf.ts'

// The document's XMP metadata (ISO 19005-2 6.6; ISO 14289-1 5 and 7.1): the packet's
// serialisation, the PDF/A and PDF/UA identification schemas and dc:title.

export const XMP_TYPES: ModelTypes = {
  XMPPackage: { props: ['bytes', 'encoding', 'isSerializationValid', 'actualEncoding'] },
  MainXMPPackage: {
    parent: 'XMPPackage',
    props: ['containsPDFAIdentification', 'containsPDFUAIdentification', 'dc_title'],
  },
  PDFAIdentification: {
    props: ['part', 'conformance', 'partPrefix', 'conformancePrefix', 'amdPrefix', 'corrPrefix'],
  },
  PDFUAIdentification: { props: ['part', 'partPrefix', 'amdPrefix', 'corrPrefix'] },
}

export const NS = {
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  pdfuaid: 'http://www.aiim.org/pdfua/ns/id/',
  dc: 'http://purl.org/dc/elements/1.1/',
}

export function mainXmp(v: Values, catalog: PDFDict | undefined): XmpPacket | undefined {
  const stream = v.stream(catalog, 'Metadata')
  const bytes = stream ? v.decoded(stream) : undefined
  return bytes ? readXmp(bytes) : undefined
}

function textValue(p: XmpProperty | undefined): string | null {
  if (!p) return null
  return p.value.kind === 'text' || p.value.kind === 'uri' ? p.value.text.trim() : null
}

export function xmpObjects(packet: XmpPacket | undefined): ModelObject[] {
  if (!packet) return []
  const inNs = (ns: string) => packet.properties.filter((p) => p.ns === ns)
  const get = (list: XmpProperty[], name: string) => list.find((p) => p.name === name)
  const pdfa = inNs(NS.pdfaid)
  const pdfua = inNs(NS.pdfuaid)
  const title = get(inNs(NS.dc), 'title')
  const out: ModelObject[] = [
    {
      type: 'MainXMPPackage',
      context: 'XMP metadata',
      props: {
        bytes: packet.bytesAttribute,
        encoding: packet.encodingAttribute,
        isSerializationValid: packet.wellFormed,
        actualEncoding: packet.actualEncoding,
        containsPDFAIdentification: get(pdfa, 'part') !== undefined && get(pdfa, 'conformance') !== undefined,
        containsPDFUAIdentification: get(pdfua, 'part') !== undefined,
        dc_title: title ? 'present' : null,
      },
    },
  ]
  const num = (s: string | null) => (s === null || s === '' || Number.isNaN(Number(s)) ? null : Number(s))
  const prefixes = (list: XmpProperty[], names: string[]) =>
    Object.fromEntries(names.map((n) => [`${n}Prefix`, get(list, n)?.prefix ?? null]))
  if (pdfa.length > 0) {
    out.push({
      type: 'PDFAIdentification',
      context: 'XMP pdfaid',
      props: {
        part: num(textValue(get(pdfa, 'part'))),
        conformance: textValue(get(pdfa, 'conformance')),
        ...prefixes(pdfa, ['part', 'conformance', 'amd', 'corr']),
      },
    })
  }
  if (pdfua.length > 0) {
    out.push({
      type: 'PDFUAIdentification',
      context: 'XMP pdfuaid',
      props: { part: num(textValue(get(pdfua, 'part'))), ...prefixes(pdfua, ['part', 'amd', 'corr']) },
    })
  }
  return out
}
