import { decodePDFRawStream, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { readMetadata } from './pdf-info.ts'
import { writeXmp } from './xmp.ts'

async function packetAfter(...steps: Parameters<typeof writeXmp>[2][]): Promise<string> {
  return packetOf('Report', ...steps)
}

async function packetOf(title: string, ...steps: Parameters<typeof writeXmp>[2][]): Promise<string> {
  let doc = await PDFDocument.create()
  doc.setTitle(title)
  for (const claims of steps) {
    writeXmp(doc, readMetadata(doc), claims)
    // each step of the chain reads the file the last one saved
    doc = await PDFDocument.load(await doc.save(), { updateMetadata: false })
  }
  const stream = doc.catalog.lookup(PDFName.of('Metadata'))
  if (!(stream instanceof PDFRawStream)) throw new Error('no metadata stream')
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8')
}

describe('writeXmp', () => {
  it('claims PDF/A beside the Info values, without an extension schema it does not need', async () => {
    const packet = await packetAfter({ 'pdfaid:part': '2', 'pdfaid:conformance': 'B' })
    expect(packet).toContain('<rdf:li xml:lang="x-default">Report</rdf:li>')
    expect(packet).toContain('<pdfaid:part>2</pdfaid:part>')
    expect(packet).not.toContain('pdfaExtension')
  })

  it('describes pdfuaid in a PDF/A extension schema when a later step claims PDF/UA too', async () => {
    const packet = await packetAfter(
      { 'pdfaid:part': '3', 'pdfaid:conformance': 'B' },
      { 'pdfuaid:part': '1' },
    )
    expect(packet).toContain('<pdfaid:part>3</pdfaid:part>')
    expect(packet).toContain('<pdfuaid:part>1</pdfuaid:part>')
    expect(packet).toContain('<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>')
    expect(packet.match(/pdfaExtension:schemas>/g)).toHaveLength(2)
  })

  it('needs no extension schema for PDF/UA alone', async () => {
    const packet = await packetAfter({ 'pdfuaid:part': '1' })
    expect(packet).toContain('<pdfuaid:part>1</pdfuaid:part>')
    expect(packet).not.toContain('pdfaExtension')
  })

  it('leaves out characters XML cannot carry, so the packet stays well-formed', async () => {
    const packet = await packetOf('Bell\u0007 & <tags> \uD800 😀', {})
    expect(packet).toContain('<rdf:li xml:lang="x-default">Bell &amp; &lt;tags&gt; ')
    expect(packet).toContain('😀</rdf:li>')
    expect(packet).not.toContain('\u0007')
    expect(packet.isWellFormed()).toBe(true)
  })
})
