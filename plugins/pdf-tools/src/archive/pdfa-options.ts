import type { PdfPostProcessor } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'

// The render options the PDF/A step reads. `pdfa` makes it run; `attachments` were embedded by
// the attach step before it (it declares them for PDF/A-3 with the relationship and media type
// asked for); `protect` is read only to refuse it: an encrypted file cannot be PDF/A.

const AttachmentFacts = Type.Object(
  {
    name: Type.String(),
    mime_type: Type.Optional(Type.String()),
    relationship: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
)

export const PdfaOptionsSchema = Type.Object(
  {
    pdfa: Type.Union([Type.Literal('2b'), Type.Literal('3b')], {
      description: 'The PDF/A part and level: 2b (ISO 19005-2) or 3b (ISO 19005-3).',
    }),
    attachments: Type.Optional(Type.Array(AttachmentFacts)),
    protect: Type.Optional(Type.Unknown()),
  },
  // the step is handed the whole `pdf` options object; the fields it does not read are others'
  { additionalProperties: true },
)

export type PdfaOptions = Static<typeof PdfaOptionsSchema>

type FieldProblem = ReturnType<NonNullable<PdfPostProcessor['check']>>[number]

/**
 * The one place for the request rules PDF/A sets on the other PDF options (paths relative to the
 * `pdf` options object): no encryption (ISO 19005-2/-3 6.1.3: no /Encrypt in the trailer), and
 * no attachments on PDF/A-2 (6.8 lets a PDF/A-2 embed only files that are themselves PDF/A-1 or
 * -2, which the service cannot promise for files it is handed; PDF/A-3 takes any file).
 */
export function pdfaOptionProblems(options: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = []
  if (options.pdfa === undefined) return problems
  if (options.protect !== undefined && options.protect !== null) {
    problems.push({
      path: '/protect',
      code: 'conflict',
      message: 'a PDF/A file cannot be encrypted (ISO 19005 6.1.3); leave protect out or pdfa out',
    })
  }
  const attachments = options.attachments
  if (options.pdfa === '2b' && Array.isArray(attachments) && attachments.length > 0) {
    problems.push({
      path: '/attachments',
      code: 'conflict',
      message:
        'PDF/A-2b embeds only files that are PDF/A themselves (ISO 19005-2 6.8); use pdfa: "3b" to attach files',
    })
  }
  return problems
}
