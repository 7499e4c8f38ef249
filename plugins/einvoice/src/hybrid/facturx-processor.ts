import { AFRelationship, decodePDFRawStream, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import type { PdfPostProcessor } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import { PROFILE_IDS } from '../model/profile-matrix.ts'
import { hybridFacts } from './facturx.ts'
import { withFacturxXmp } from './facturx-xmp.ts'

// The `embed` step of a hybrid invoice (decision 0117): core wrote and validated the profile's
// XML (the request's `output.einvoice`) and made the PDF PDF/A-3b (the `archive` step ran
// before); this step embeds the XML as Factur-X asks and describes it in the XMP. It owns the
// Factur-X facts (file name, AFRelationship, fx: properties) so no other plugin needs them; it
// uses pdf-lib directly rather than the pdf-tools plugin, which a plugin may not import.

export const FacturxOptionsSchema = Type.Object({
  einvoice_xml: Type.Object(
    {
      profile: Type.Union(PROFILE_IDS.map((id) => Type.Literal(id))),
      /** the validated CII XML, base64 (render options are JSON) */
      xml: Type.String({ contentEncoding: 'base64' }),
    },
    { additionalProperties: false },
  ),
})

type FacturxOptions = Static<typeof FacturxOptionsSchema>

function xmpPacket(doc: PDFDocument): string {
  const stream = doc.catalog.lookup(PDFName.of('Metadata'))
  if (!(stream instanceof PDFRawStream)) throw new Error('the PDF/A file has no XMP packet')
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8')
}

export const facturxProcessor: PdfPostProcessor<FacturxOptions> = {
  id: 'facturx',
  phase: 'embed',
  optionsSchema: FacturxOptionsSchema,
  async run(pdf, options, ctx) {
    const { profile, xml } = options.einvoice_xml
    const facts = hybridFacts(profile)
    const doc = await PDFDocument.load(pdf, { updateMetadata: false })
    const now = new Date()
    // pdf-lib writes the file spec with /AFRelationship, /Subtype text/xml, /Params (size, dates)
    // and lists it in the catalog's /AF, as PDF/A-3 6.8 asks
    await doc.attach(Buffer.from(xml, 'base64'), facts.filename, {
      mimeType: 'text/xml',
      description: `${facts.conformanceLevel} e-invoice (Factur-X)`,
      creationDate: now,
      modificationDate: now,
      afRelationship: AFRelationship[facts.relationship],
    })
    const packet = withFacturxXmp(xmpPacket(doc), facts)
    const stream = doc.context.stream(Buffer.from(packet, 'utf8'), { Type: 'Metadata', Subtype: 'XML' })
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream))
    const bytes = Buffer.from(await doc.save({ updateFieldAppearances: false, addDefaultPage: false }))
    ctx.log(`embedded ${facts.filename} (${facts.relationship}, ${facts.conformanceLevel})`)
    return { bytes }
  },
}
