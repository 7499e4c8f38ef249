import { type TObject, type TProperties, type TSchema, Type } from 'typebox'
import { ConvenienceFields, SharedRenderFields } from '../renders/render-schemas.ts'
import { PdfMetadataSchema } from '../sdk/pdf-metadata-schema.ts'
import { MAX_MERGE_SOURCES } from './pdf-tool-request.ts'

// Request bodies of the PDF tools (SPEC 4.4). The protect fields are those of the `pdf.protect`
// render option, taken from the one schema that defines them: the options schema the PDF output
// plugin registered (core imports no plugin, decision 0036), read when the routes are built.

/** A one-page blank A4 PDF (310 bytes): an example a client can send as it is. */
const BLANK_PAGE_PDF =
  'data:application/pdf;base64,JVBERi0xLjQKMSAwIG9iago8PC9UeXBlL0NhdGFsb2cvUGFnZXMgMiAwIFI+PgplbmRvYmoKMiAwIG9iago8PC9UeXBlL1BhZ2VzL0tpZHNbMyAwIFJdL0NvdW50IDE+PgplbmRvYmoKMyAwIG9iago8PC9UeXBlL1BhZ2UvUGFyZW50IDIgMCBSL01lZGlhQm94WzAgMCA1OTUgODQyXT4+CmVuZG9iagp4cmVmCjAgNAowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1NCAwMDAwMCBuIAowMDAwMDAwMTA1IDAwMDAwIG4gCnRyYWlsZXIKPDwvU2l6ZSA0L1Jvb3QgMSAwIFI+PgpzdGFydHhyZWYKMTcwCiUlRU9GCg=='

export const PdfSourceSpecSchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'An http(s) URL that answers the PDF.',
        examples: ['https://example.com/contract.pdf'],
      }),
    ),
    render_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A render of this workspace whose PDF to use (rnd_...).',
        examples: ['rnd_01kaz3m8q4r7t9v2w5x6y8z0ab'],
      }),
    ),
    file_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'With `render_id`: which of its files (default its first PDF).',
        examples: ['file_01kaz3p4q6r8s0t2v4w6x8y0za'],
      }),
    ),
    upload_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A file sent to POST /v1/uploads (upl_...).',
        examples: ['upl_01hzy3k2m5x8q9r0s1t2u3v4w5'],
      }),
    ),
    data_uri: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The PDF itself as a data: URI (data:application/pdf;base64,...).',
        examples: [BLANK_PAGE_PDF],
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A PDF to work on: exactly one of url, render_id (with file_id if it has several files), upload_id, data_uri.',
    examples: [{ upload_id: 'upl_01hzy3k2m5x8q9r0s1t2u3v4w5' }],
  },
)

/** A page list: `all`, `7`, `1-3`, `4-` (to the end) or a comma-separated list of them, from 1. */
const Pages = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 1000,
    description: `${what}: all, a page (7), a range (1-3), to the end (4-) or a list of them (1,3-5); pages count from 1.`,
    examples: ['1,3-5'],
  })

/** What every tool takes besides its own fields: the shared render fields and the file options. */
export const ToolCommonFields: TProperties = {
  ...SharedRenderFields,
  filename: ConvenienceFields.filename,
  expires_in: ConvenienceFields.expires_in,
  hosted: ConvenienceFields.hosted,
  retention_days: ConvenienceFields.retention_days,
  webhook_url: ConvenienceFields.webhook_url,
}

/** The `protect` object of a PDF output's options schema, when it has one. */
export function protectSchemaOf(pdfOptions: TSchema | undefined): TObject | undefined {
  const protect = (pdfOptions as Partial<TObject> | undefined)?.properties?.protect
  return protect && (protect as Partial<TObject>).properties ? (protect as TObject) : undefined
}

/**
 * Each tool's own fields. Without a PDF output that defines `protect`, the protect tool takes only
 * its source and its route refuses with service_unavailable (see pdf-tool-routes.ts).
 */
export function toolFields(protect: TObject | undefined): Record<RoutedPdfTool, TProperties> {
  return {
    merge: {
      sources: Type.Array(PdfSourceSpecSchema, {
        minItems: 2,
        maxItems: MAX_MERGE_SOURCES,
        description: `The PDFs to merge, in order (2 to ${MAX_MERGE_SOURCES}).`,
        examples: [
          [{ upload_id: 'upl_01hzy3k2m5x8q9r0s1t2u3v4w5' }, { url: 'https://example.com/terms.pdf' }],
        ],
      }),
      bookmarks: Type.Optional(
        Type.Union([Type.Literal('filenames'), Type.Literal('none')], {
          description:
            '`filenames` adds a bookmark per source, named after its file; `none` (default) adds none.',
          examples: ['filenames'],
        }),
      ),
    },
    metadata: {
      source: PdfSourceSpecSchema,
      set: Type.Optional(Type.Union([PdfMetadataSchema, Type.Null()])),
    },
    protect: { source: PdfSourceSpecSchema, ...protect?.properties },
    rotate: {
      source: PdfSourceSpecSchema,
      degrees: Type.Union(
        [90, 180, 270, -90, -180, -270].map((d) => Type.Literal(d)),
        {
          description: 'Clockwise turn in degrees (negative: anticlockwise).',
          examples: [90],
        },
      ),
      pages: Type.Optional({ ...Pages('The pages to turn'), default: 'all' }),
    },
    split: {
      source: PdfSourceSpecSchema,
      ranges: Type.Optional(
        Type.Union([Type.Array(Pages('One output file'), { minItems: 1, maxItems: 200 }), Type.Null()], {
          description: 'One output file per entry, each a page list. Send `ranges` or `every`.',
          examples: [['1-3', '4-']],
        }),
      ),
      every: Type.Optional(
        Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
          description: 'One output file per this many pages. Send `ranges` or `every`.',
          examples: [10],
        }),
      ),
      zip: Type.Optional(
        Type.Boolean({
          description: 'Deliver the parts as one zip file instead of one file each (default false).',
          examples: [true],
        }),
      ),
    },
    unlock: {
      source: PdfSourceSpecSchema,
      password: Type.String({
        maxLength: 1000,
        description: "The PDF's user or owner password.",
        examples: ['open-sesame'],
      }),
    },
  }
}

/**
 * The tools with a route of their own (`/v1/pdf-tools/<name>`) and each route's summary: the one
 * list the routes are made from and `capabilities.pdfTools` is filtered by. Registered tools not
 * in it (`attach`, which serves the `pdf.attachments` render option) have no route.
 */
export const TOOL_SUMMARIES = {
  merge: 'Merge 2 to 200 PDFs into one',
  metadata: "Read a PDF's metadata, or set it",
  protect: 'Password-protect a PDF (AES-256)',
  rotate: 'Rotate pages of a PDF',
  split: 'Split a PDF into several',
  unlock: 'Remove the password and restrictions of a PDF',
} as const

export type RoutedPdfTool = keyof typeof TOOL_SUMMARIES

/** The registered tools a client can call: those with a route, in the order given. */
export function routedPdfTools(registered: readonly string[]): RoutedPdfTool[] {
  return registered.filter((name): name is RoutedPdfTool => Object.hasOwn(TOOL_SUMMARIES, name))
}
