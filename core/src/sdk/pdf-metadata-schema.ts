import { Type } from 'typebox'

// The document information a PDF carries, as the metadata tool's `set` and the `pdf.metadata`
// render option both take it: one schema, so the two cannot drift. Written to the Info dictionary
// and, in step, to the XMP packet (dc:title, dc:creator, dc:description, pdf:Keywords,
// pdf:Producer, xmp:CreatorTool, dc:language).

const Text = (maxLength: number, description: string, example: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description, examples: [example] }))

export const PdfMetadataSchema = Type.Object(
  {
    title: Text(2000, 'The document title PDF viewers show in their title bar.', 'Invoice 2024-0042'),
    author: Text(2000, 'Who wrote the document.', 'Acme GmbH'),
    subject: Text(2000, 'What the document is about.', 'Invoice for October 2024'),
    keywords: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }), Type.Null()], {
        description: 'Search keywords, one per entry.',
        examples: [['invoice', 'acme']],
      }),
    ),
    creator: Text(2000, 'The application that made the original document.', 'Acme ERP'),
    producer: Text(2000, 'The application that made the PDF.', 'Acme ERP PDF export'),
    lang: Text(35, 'The natural language of the document, as a BCP 47 tag.', 'de-DE'),
  },
  {
    additionalProperties: false,
    description:
      'Document information written to the PDF (its Info dictionary and XMP metadata alike). An empty string, null or [] removes a field.',
    examples: [{ title: 'Invoice 2024-0042', author: 'Acme GmbH', keywords: ['invoice'] }],
  },
)
