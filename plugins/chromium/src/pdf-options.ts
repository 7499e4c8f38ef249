import { makesTaggedPdf, PdfMetadataSchema, ProblemError, type RenderWarningCode } from '@docsvc/core/sdk'
import type { Page } from 'playwright-core'
import { type Static, Type } from 'typebox'
import { LocaleSchema } from './page-locale.ts'

const Length = (description: string, example: string) =>
  Type.Union(
    [
      Type.Number({ minimum: 0 }),
      Type.String({
        pattern: '^\\d+(\\.\\d+)?(px|in|cm|mm)?$',
        description: 'a number with px, in, cm or mm',
      }),
    ],
    {
      description: `${description} CSS pixels as a number, or a string with px, in, cm or mm.`,
      examples: [example],
    },
  )

/**
 * The margin of a side a request leaves out (decision 0057): 1cm, about what Chrome's print
 * dialog uses by default, so text does not touch the edge of the paper; 0 must be asked for.
 */
export const DEFAULT_MARGIN = '1cm'

const LIQUID_NOTE =
  "With templating: true on inline HTML or Markdown it is Liquid filled from the render's data (a template's own header and footer always are)."

const Password = (description: string, example: string) =>
  Type.Union([Type.String({ maxLength: 127 }), Type.Null()], { description, examples: [example] })
const Allowed = (what: string) =>
  Type.Optional(
    Type.Boolean({ description: `Whether the reader may ${what} (default true).`, examples: [false] }),
  )

/** `pdf.protect` and the protect tool (SPEC 4.4): AES-256 with a user and/or owner password. */
const Protect = Type.Object(
  {
    user_password: Type.Optional(Password('Needed to open the PDF.', 'open-sesame')),
    owner_password: Type.Optional(
      Password(
        'Needed to change the permissions; readers without it get only those allowed.',
        'owner-7f3a9c',
      ),
    ),
    permissions: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              print: Allowed('print'),
              print_high_res: Allowed('print at full resolution'),
              copy: Allowed('copy text and images'),
              fill_forms: Allowed('fill in forms'),
              modify: Allowed('change the content'),
              annotate: Allowed('add comments'),
              assemble: Allowed('insert, delete or rotate pages'),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description: 'What a reader without the owner password may do.',
          examples: [{ print: true, copy: false, modify: false }],
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Encrypt the PDF (AES-256) with a user and/or owner password.',
  },
)

/** One `pdf.attachments` entry: a file by `url` or `data_uri`, embedded with its AFRelationship. */
const Attachment = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'File name inside the PDF.',
      examples: ['data.csv'],
    }),
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'Where to fetch the file. Send `url` or `data_uri`.',
        examples: ['https://example.com/data.csv'],
      }),
    ),
    data_uri: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The file as a data: URI (base64). Send `url` or `data_uri`.',
        examples: ['data:text/csv;base64,bmFtZSx0b3RhbApBZGEsNDIuNTAK'],
      }),
    ),
    mime_type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Its media type (default: guessed from the name).',
        examples: ['text/csv'],
      }),
    ),
    description: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: 'Shown by PDF readers next to the file.',
        examples: ['The invoice lines as CSV'],
      }),
    ),
    relationship: Type.Optional(
      Type.Union(
        ['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified'].map((r) => Type.Literal(r)),
        {
          description: 'How the file relates to the document (PDF/A-3 AFRelationship; default Unspecified).',
          examples: ['Data'],
        },
      ),
    ),
  },
  { additionalProperties: false },
)

/** PdfOptions (DESIGN.md §10), snake_case like the rest of the API. */
export const PdfOptionsSchema = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        [
          Type.Literal('A3'),
          Type.Literal('A4'),
          Type.Literal('A5'),
          Type.Literal('Letter'),
          Type.Literal('Legal'),
          Type.Literal('Tabloid'),
        ],
        {
          description: 'Paper size (default A4); ignored when `width` or `height` is given.',
          examples: ['Letter'],
        },
      ),
    ),
    width: Type.Optional(Length('Paper width, instead of `format`.', '210mm')),
    height: Type.Optional(Length('Paper height, instead of `format`.', '297mm')),
    landscape: Type.Optional(
      Type.Boolean({ description: 'Turn the paper sideways (default false).', examples: [true] }),
    ),
    margin: Type.Optional(
      Type.Object(
        {
          top: Type.Optional(Length('Top margin; the header prints in it.', '25mm')),
          right: Type.Optional(Length('Right margin.', '20mm')),
          bottom: Type.Optional(Length('Bottom margin; the footer prints in it.', '25mm')),
          left: Type.Optional(Length('Left margin.', '20mm')),
        },
        {
          additionalProperties: false,
          description: `Space between the edge of the sheet and the content, per side: a number of CSS pixels, or a string with px, in, cm or mm. A side left out gets ${DEFAULT_MARGIN}, like a browser's print default; give 0 for content that reaches the edge. A header or footer is printed inside the top or bottom margin.`,
          examples: [
            { top: '2cm', bottom: '2cm' },
            { top: 0, right: 0, bottom: 0, left: 0 },
          ],
        },
      ),
    ),
    print_background: Type.Optional(
      Type.Boolean({ default: true, description: 'Print background colours and images.', examples: [false] }),
    ),
    scale: Type.Optional(
      Type.Number({
        minimum: 0.1,
        maximum: 2,
        description: 'Zoom of the page content (default 1).',
        examples: [0.9],
      }),
    ),
    page_ranges: Type.Optional(
      Type.String({
        pattern: '^\\s*\\d*\\s*-?\\s*\\d*(\\s*,\\s*\\d*\\s*-?\\s*\\d*)*\\s*$',
        maxLength: 200,
        description: 'Pages to keep, 1-based: numbers and ranges separated by commas (default all).',
        examples: ['1-3, 5'],
      }),
    ),
    header_html: Type.Optional(
      Type.String({
        maxLength: 200_000,
        description: `HTML printed at the top of every page, inside the top margin. Elements with the class pageNumber, totalPages, date, title or url are filled in. Give font sizes in px or pt: the header has no default text size. ${LIQUID_NOTE}`,
        examples: ['<div style="font-size:10px; width:100%; text-align:right">Invoice {{ number }}</div>'],
      }),
    ),
    footer_html: Type.Optional(
      Type.String({
        maxLength: 200_000,
        description: `HTML printed at the bottom of every page, inside the bottom margin; as header_html. ${LIQUID_NOTE}`,
        examples: [
          '<div style="font-size:10px; width:100%; text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
        ],
      }),
    ),
    prefer_css_page_size: Type.Optional(
      Type.Boolean({
        description: "Use the page size of the document's CSS `@page` rule over `format` (default false).",
        examples: [true],
      }),
    ),
    tagged: Type.Optional(
      Type.Boolean({
        description: 'Make a tagged (accessible) PDF with a structure tree.',
        examples: [true],
      }),
    ),
    outline: Type.Optional(
      Type.Boolean({
        description: "Add bookmarks from the document's headings; makes the PDF tagged (default false).",
        examples: [true],
      }),
    ),
    locale: Type.Optional(LocaleSchema),
    // applied after the browser by post-processing; accepted here so one schema checks output.pdf
    pdfa: Type.Optional(
      Type.Union([Type.Literal('2b'), Type.Literal('3b')], {
        description:
          "Make an archival PDF/A-2b or PDF/A-3b; its validation report is in the render's `result`.",
        examples: ['3b'],
      }),
    ),
    pdfua: Type.Optional(
      Type.Boolean({
        description: 'Make an accessible PDF/UA-1 document (Growth plan and up); its report is in `result`.',
        examples: [true],
      }),
    ),
    attachments: Type.Optional(
      Type.Array(Attachment, { maxItems: 20, description: 'Files embedded in the PDF, at most 20.' }),
    ),
    protect: Type.Optional(Protect),
    metadata: Type.Optional(PdfMetadataSchema),
  },
  { additionalProperties: false },
)

export type PdfOptions = Static<typeof PdfOptionsSchema>
type Length = number | string
export type PlaywrightPdfOptions = NonNullable<Parameters<Page['pdf']>[0]>

// Playwright's paper table, in inches
const PAPER: Record<string, [number, number]> = {
  A3: [11.7, 16.54],
  A4: [8.27, 11.7],
  A5: [5.83, 8.27],
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
}
const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 }

export interface PdfPlan {
  print: PlaywrightPdfOptions
  /** the sheet in CSS px, orientation applied */
  paper: { width: number; height: number }
  margin: { top: number; right: number; bottom: number; left: number }
  scale: number
}

export function lengthPx(value: Length | undefined): number {
  if (value === undefined) return 0
  if (typeof value === 'number') return value
  const match = /^(\d+(?:\.\d+)?)(px|in|cm|mm)?$/.exec(value)
  return match ? Number(match[1]) * (PX_PER_UNIT[match[2] ?? 'px'] ?? 1) : 0
}

/** Chromium reads a bare number in a string as px; Playwright wants strings with a unit. */
function lengthText(value: Length | undefined): string | undefined {
  if (value === undefined) return undefined
  return typeof value === 'number' || /^[\d.]+$/.test(value) ? `${value}px` : value
}

/** Playwright's print options for PdfOptions; what cannot take effect is a warning. */
export function pdfPlan(
  options: PdfOptions,
  warn: (code: RenderWarningCode, message: string) => void,
): PdfPlan {
  const print: PlaywrightPdfOptions = { printBackground: options.print_background ?? true }
  let paper: { width: number; height: number }
  if (options.width !== undefined || options.height !== undefined) {
    if (options.format) warn('feature_unavailable', 'format is ignored when width or height is given')
    const [w, h] = PAPER.A4!
    print.width = lengthText(options.width) ?? `${w}in`
    print.height = lengthText(options.height) ?? `${h}in`
    paper = { width: lengthPx(print.width), height: lengthPx(print.height) }
  } else {
    const format = options.format ?? 'A4'
    print.format = format
    const [w, h] = PAPER[format]!
    paper = { width: w * 96, height: h * 96 }
  }
  if (options.landscape) {
    print.landscape = true
    paper = { width: paper.height, height: paper.width }
  }
  const given = Object.entries(options.margin ?? {}).filter(([, v]) => v !== undefined)
  const m: Record<'top' | 'right' | 'bottom' | 'left', Length> = {
    top: DEFAULT_MARGIN,
    right: DEFAULT_MARGIN,
    bottom: DEFAULT_MARGIN,
    left: DEFAULT_MARGIN,
    ...Object.fromEntries(given),
  }
  const margin = {
    top: lengthPx(m.top),
    right: lengthPx(m.right),
    bottom: lengthPx(m.bottom),
    left: lengthPx(m.left),
  }
  print.margin = {}
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const text = lengthText(m[side])
    if (text !== undefined) print.margin[side] = text
  }
  if (options.scale !== undefined) print.scale = options.scale
  if (options.page_ranges) print.pageRanges = options.page_ranges
  if (options.prefer_css_page_size) print.preferCSSPageSize = true
  if (options.header_html !== undefined || options.footer_html !== undefined) {
    print.displayHeaderFooter = true
    // an absent template would print Chromium's default (date, title, URL)
    print.headerTemplate = options.header_html ?? '<span></span>'
    print.footerTemplate = options.footer_html ?? '<span></span>'
  }
  // PDF/UA-1 is built on Chromium's structure tree (decision 0103): an untagged print cannot be made one
  if (options.pdfua && options.tagged === false)
    throw new ProblemError(
      'validation_error',
      'pdf.pdfua needs a tagged PDF; tagged: false contradicts it.',
      {
        errors: [
          { path: '/output/pdf/tagged', code: 'conflict', message: 'must not be false with pdfua: true' },
        ],
      },
    )
  if (options.tagged !== undefined || options.outline || options.pdfua) print.tagged = makesTaggedPdf(options)
  // Chromium builds the outline from the structure tree, so it needs a tagged PDF
  if (options.outline && print.tagged) print.outline = true
  else if (options.outline)
    warn('feature_unavailable', 'outline needs a tagged PDF; with tagged: false no outline is made')
  return { print, paper, margin, scale: options.scale ?? 1 }
}

/**
 * Measured on the Chromium we ship: header and footer templates are printed 20 CSS px from the
 * sheet's edge whatever the margins, size or scale; each is a flex row (blocks stand side by
 * side, margins do not collapse); and text has no size unless the template gives one in absolute
 * units (the template frame's default font size is 0, so `medium` and `em` print nothing).
 */
export const TEMPLATE_EDGE_PX = 20

// Runs in the page: each template laid out the way Chromium prints it, at the sheet's width, in a
// hidden shadow root (its styles stay inside, and innerHTML runs no scripts, as in the print).
const MEASURE = `((templates, width, edge) => templates.map((html, i) => {
  if (!html) return 0
  const host = document.createElement('div')
  host.setAttribute('style', 'all: initial; position: absolute; left: -100000px; top: 0; visibility: hidden; width: ' + width + 'px')
  const root = host.attachShadow({ mode: 'closed' })
  const frame = document.createElement('div')
  frame.setAttribute('style', 'display: flex; font-size: 0; line-height: normal; align-items: ' + (i === 0 ? 'flex-start' : 'flex-end'))
  frame.innerHTML = html
  root.appendChild(frame)
  document.documentElement.appendChild(host)
  // what prints: the boxes of the content (a last margin prints nothing), from the template's edge
  const range = document.createRange()
  range.selectNodeContents(frame)
  const content = range.getBoundingClientRect()
  const box = frame.getBoundingClientRect()
  host.remove()
  if (content.width === 0 && content.height === 0) return 0
  return edge + (i === 0 ? content.bottom - box.top : box.bottom - content.top)
}))`

/** header_footer_overlap when a template is taller than the margin it is printed in. */
export async function checkHeaderFooterFit(
  page: Page,
  options: PdfOptions,
  plan: PdfPlan,
  warn: (code: RenderWarningCode, message: string) => void,
): Promise<void> {
  if (options.header_html === undefined && options.footer_html === undefined) return
  const templates = JSON.stringify([options.header_html ?? '', options.footer_html ?? ''])
  const [header = 0, footer = 0] = (await page.evaluate(
    `${MEASURE}(${templates}, ${plan.paper.width}, ${TEMPLATE_EDGE_PX})`,
  )) as number[]
  const parts = [
    ['header', header, plan.margin.top, 'top'],
    ['footer', footer, plan.margin.bottom, 'bottom'],
  ] as const
  for (const [name, height, margin, side] of parts) {
    if (height > margin + 0.5)
      warn(
        'header_footer_overlap',
        `the ${name} reaches ${Math.ceil(height)}px from the ${side} of the sheet but margin.${side} is ${Math.floor(margin)}px; it overlaps the content (set margin.${side} to at least ${Math.ceil(height)}px)`,
      )
  }
}
