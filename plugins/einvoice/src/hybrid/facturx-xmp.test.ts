import { describe, expect, it } from 'vitest'
import { hybridFacts } from './facturx.ts'
import { FACTURX_NS, withFacturxXmp } from './facturx-xmp.ts'

const packet = (extra: string) =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n<rdf:Description rdf:about=""><pdfaid:part>3</pdfaid:part></rdf:Description>\n${extra}</rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>`

const count = (text: string, what: string) => text.split(what).length - 1

describe('the Factur-X XMP block', () => {
  it('adds the fx: properties and one extension schema description to a packet without one', () => {
    const out = withFacturxXmp(packet(''), hybridFacts('BASIC_WL'))
    expect(out).toContain('<fx:ConformanceLevel>BASIC WL</fx:ConformanceLevel>')
    expect(out).toContain(`<pdfaSchema:namespaceURI>${FACTURX_NS}</pdfaSchema:namespaceURI>`)
    expect(count(out, '<pdfaExtension:schemas>')).toBe(1)
    expect(out.indexOf('<fx:DocumentType>')).toBeLessThan(out.indexOf('</rdf:RDF>'))
  })

  it('joins the bag of a packet that already describes pdfuaid, so the packet keeps one', () => {
    const pdfua =
      '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"><pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>\n'
    const out = withFacturxXmp(packet(pdfua), hybridFacts('EN16931'))
    expect(count(out, '<pdfaExtension:schemas>')).toBe(1)
    expect(out).toContain('<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>')
    expect(out).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>')
    expect(out).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>')
  })

  it('leaves a packet that already says fx: as it is', () => {
    const once = withFacturxXmp(packet(''), hybridFacts('EN16931'))
    expect(withFacturxXmp(once, hybridFacts('EN16931'))).toBe(once)
  })
})
