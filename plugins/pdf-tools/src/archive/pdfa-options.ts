import { type Static, Type } from 'typebox'

// The render option the PDF/A step takes. The chain runs a step when a key of its schema is given
// and hands it those keys only (decision 0109), so the schema names `pdfa` alone: the attached
// files' relationships and media types reach the step in the PDF, where the attach step (which
// runs before) wrote them; `protect` with `pdfa` is refused by the chain at the request.

export const PdfaOptionsSchema = Type.Object({
  pdfa: Type.Union([Type.Literal('2b'), Type.Literal('3b')], {
    description: 'The PDF/A part and level: 2b (ISO 19005-2) or 3b (ISO 19005-3).',
  }),
})

export type PdfaOptions = Static<typeof PdfaOptionsSchema>
