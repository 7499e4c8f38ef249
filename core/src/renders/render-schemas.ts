import { Type } from 'typebox'
import { invoiceModelField } from '../einvoices/invoice-model-field.ts'
import { documentedBy } from '../http/plugin-schema-slots.ts'

// Request schemas of the render family (SPEC 4.2). Input and option objects are checked twice:
// here for their envelope, then against the schema their plugin registered (render-validation.ts).

const Metadata = Type.Union([Type.Record(Type.String({ maxLength: 40 }), Type.Unknown()), Type.Null()], {
  description:
    'Your own key/value pairs (keys up to 40 characters), stored on the render, returned with it and filterable with `metadata[key]` on GET /v1/renders. Not used for rendering.',
  examples: [{ order_id: 'A-1042' }],
})

export const DeliveryType = Type.Union([
  Type.Literal('url'),
  Type.Literal('binary'),
  Type.Literal('base64'),
  Type.Literal('none'),
])

export const DeliverySpec = Type.Union(
  [
    DeliveryType,
    Type.Object(
      {
        type: {
          ...DeliveryType,
          description: 'How the files reach you; as the short form.',
          examples: ['url'],
        },
        email: Type.Optional(
          Type.Array(
            Type.Object(
              {
                rule_id: Type.String({
                  description: 'Id of the workspace email rule to send with.',
                  examples: ['emr_01kaz3m8q4r7t9v2w5x6y8z0ab'],
                }),
              },
              { additionalProperties: true },
            ),
            {
              description:
                'Email rules to send the files with. Email delivery is not available on this installation yet: a list with rules is refused (400).',
            },
          ),
        ),
        storage: Type.Optional(
          Type.Array(Type.Object({}, { additionalProperties: true }), {
            description:
              'Storage destinations to upload the files to. Storage delivery is not available on this installation yet: a list with destinations is refused (400).',
            // the only list taken until storage delivery lands
            examples: [[]],
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      '`url` (default): a link to each file in the render; `binary`: the file itself as the response body (sync only); `base64`: the file inside the JSON answer (sync only); `none`: no file kept or sent. Default `url`, or `none` with `hosted: false` or `retention_days: 0`.',
    examples: ['binary'],
  },
)

export const WebhookSpec = Type.Union(
  [
    Type.Object(
      {
        url: Type.String({
          minLength: 1,
          maxLength: 2048,
          description: "Where the render's events are POSTed, signed with the default endpoint's secret.",
          examples: ['https://example.com/hooks/docsvc'],
        }),
        events: Type.Optional(
          Type.Array(Type.String(), {
            maxItems: 20,
            description: 'The event types to send (default: every render event).',
            examples: [['render.succeeded', 'render.failed']],
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      "This render's own webhook: its events go to url instead of the default endpoint (all render events unless events lists some). They are signed with the secret of the workspace's default webhook endpoint, so one must exist and be enabled (for keys of this mode) or the request is refused.",
    examples: [{ url: 'https://example.com/hooks/docsvc', events: ['render.succeeded', 'render.failed'] }],
  },
)

/**
 * `einvoice` (SPEC 2.16, EInvoiceSpec or null): the invoice a PDF embeds as a hybrid PDF/A-3b
 * (Factur-X / ZUGFeRD, CII XML). The profile is checked against the installed ones and the model
 * against the profile's schema when the render is created (core/src/einvoices/hybrid-einvoice.ts).
 */
export const EinvoiceSpecSchema = Type.Optional(
  Type.Union(
    [
      Type.Object(
        {
          profile: Type.String({
            maxLength: 40,
            description:
              'The e-invoice profile: MINIMUM, BASIC_WL, BASIC, EN16931, EXTENDED or XRECHNUNG (those installed). The XML is CII, embedded as factur-x.xml (xrechnung.xml for XRECHNUNG).',
            examples: ['EN16931'],
          }),
          invoice: invoiceModelField('/output/einvoice/invoice/lines/0/net_price'),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    {
      description:
        'Embed an e-invoice: the PDF becomes PDF/A-3b with the XML attached (Growth plan and up). null: none (it disables a template default).',
    },
  ),
)

/** `pdf` options: the PDF output plugin's schema documents them (plugin-schema-slots.ts). */
export const PdfOptionsSlot = documentedBy(
  { of: 'output-options', formats: ['pdf'] },
  Type.Object({}, { additionalProperties: true, description: 'How the PDF is printed.' }),
)

/** `image` options of the given formats, documented by their output plugins' schemas. */
export const imageOptionsSlot = (formats: string[]) =>
  documentedBy(
    { of: 'output-options', formats },
    Type.Object({}, { additionalProperties: true, description: `Options of ${formats.join(', ')} output.` }),
  )

export const OutputFormatSchema = Type.Union(
  ['pdf', 'png', 'jpeg', 'webp', 'html'].map((f) => Type.Literal(f)),
  {
    description:
      "The file to make: `pdf`, an image (`png`, `jpeg`, `webp`) or the page's `html` after its scripts ran.",
    examples: ['png'],
  },
)

/** SPEC 4.2 shared fields of every render-creating request. */
export const SharedRenderFields = {
  mode: Type.Optional(
    Type.Union([Type.Literal('sync'), Type.Literal('async')], {
      description:
        "Default `sync`: waits for the render (up to the plan's sync timeout, then answers 202 as `async` does); `async` answers 202 at once and you poll GET /v1/renders/{id} or get a webhook.",
      examples: ['async'],
    }),
  ),
  priority: Type.Optional(
    Type.Union([Type.Literal('normal'), Type.Literal('low')], {
      description: 'Default `normal`; `low` renders wait for the `normal` ones queued before them.',
      examples: ['low'],
    }),
  ),
  reference: Type.Optional(
    Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
      description: 'Your own identifier for the render (an order number), returned with it and filterable.',
      examples: ['invoice-2026-0042'],
    }),
  ),
  metadata: Type.Optional(Metadata),
  test: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'A free, watermarked test render. Test keys (doc_test_...) always make test renders; `true` with a live key answers 403 test_key_required.',
      examples: [true],
    }),
  ),
  timeout_behavior: Type.Optional(
    Type.Union([Type.Literal('continue'), Type.Literal('cancel')], {
      description:
        'Default `continue`. When a sync render outlasts the sync timeout: `continue` answers 202 and keeps rendering; `cancel` stops it and answers 408.',
      examples: ['cancel'],
    }),
  ),
  webhook: Type.Optional(WebhookSpec),
  delivery: Type.Optional(DeliverySpec),
}

const Data = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
  description: 'The values a template (or an input with `templating: true`) renders with.',
  examples: [{ customer: 'Ada Lovelace', total: 42.5 }],
})

/** Fields the convenience endpoints share with the general endpoint, plus their own extras. */
export const ConvenienceFields = {
  data: Type.Optional(Data),
  data_url: Type.Optional(
    Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], {
      description:
        'A URL that answers the JSON `data` object, fetched when rendering. Send `data` or `data_url`, not both.',
      examples: ['https://example.com/orders/1042.json'],
    }),
  ),
  engine: Type.Optional(
    Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
      description:
        'The engine that draws the document. This installation draws HTML, Markdown, web pages and HTML or Markdown templates with "chromium"; leave it out (or null) to use it. Any other value is refused, as is any value for an image_canvas template or a PDF tool.',
      examples: ['chromium'],
    }),
  ),
  expires_in: Type.Optional(
    Type.Integer({
      minimum: 60,
      maximum: 7 * 24 * 3600,
      description: 'Seconds the signed file links in the answer stay valid (default 3600).',
      examples: [86400],
    }),
  ),
  filename: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "The file's download name; the format's extension is enforced. For a template, or inline HTML or Markdown with templating: true, it is Liquid filled from the render's data. An untitled PDF takes it (without the extension) as its title.",
      examples: ['invoice-{{ number }}.pdf', 'report.pdf'],
    }),
  ),
  hosted: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'Keep a copy of the files to download later (default true); false deletes it once delivered.',
      examples: [false],
    }),
  ),
  retention_days: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 3650 }), Type.Null()], {
      description: "Days the files are kept (default: the plan's); 0 keeps nothing after delivery.",
      examples: [7],
    }),
  ),
  webhook_url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        "Where this render's events are sent, as webhook: { url } does. They are signed with the secret of the workspace's default webhook endpoint, so one must exist and be enabled (for keys of this mode) or the request is refused.",
      examples: ['https://example.com/hooks/docsvc'],
    }),
  ),
}

/** SPEC 2.16 template input of `POST /v1/renders` (the templates feature resolves it). */
export const TemplateVersionSchema = Type.Union(
  [Type.Literal('live'), Type.Literal('draft'), Type.Integer({ minimum: 1 })],
  {
    description: 'Default `live` (the published version), `draft` (test keys only) or a version number.',
    examples: ['live', 3],
  },
)
export const TemplateInputSchema = Type.Object(
  {
    type: Type.Literal('template', { description: '`template`: render a stored template.' }),
    template_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The template to render (tpl_...).',
      examples: ['tpl_01hzy3k2m5x8q9r0s1t2u3v4w5'],
    }),
    version: Type.Optional(TemplateVersionSchema),
    dataset_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A saved dataset of the template (ds_...) to render with, instead of `data`.',
        examples: ['ds_01kaz3n2b7c9d4f6g8h1j3k5m7'],
      }),
    ),
  },
  { additionalProperties: false },
)

/** Changes to a template for one render (template-document.ts applies them). */
export const TemplateOverrides = Type.Union(
  [Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()],
  {
    description:
      "Template inputs only. For pdf_code and pdf_markdown templates, objects with `css` (added after the template's), `header_html` or `footer_html` (replacing the template's); for image_canvas, objects naming a layer (`name`) with the properties to change.",
    examples: [[{ css: 'h1 { color: navy }' }]],
  },
)

export const CreateRenderBody = Type.Object(
  {
    ...SharedRenderFields,
    ...ConvenienceFields,
    input: documentedBy(
      { of: 'inputs', also: [TemplateInputSchema] },
      Type.Object(
        { type: Type.String({ minLength: 1, maxLength: 64 }) },
        {
          additionalProperties: true,
          description: 'What to render: its `type` selects the input, whose own fields follow.',
        },
      ),
    ),
    output: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              format: OutputFormatSchema,
              pdf: Type.Optional(Type.Union([PdfOptionsSlot, Type.Null()])),
              image: Type.Optional(
                Type.Union([imageOptionsSlot(['png', 'jpeg', 'webp', 'html']), Type.Null()]),
              ),
              einvoice: EinvoiceSpecSchema,
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'What to make and how (default: a PDF with the default options).' },
      ),
    ),
    overrides: Type.Optional(TemplateOverrides),
  },
  { additionalProperties: false },
)

// unknown ids of any shape answer 404, so the path parameters carry no pattern
const RenderId = Type.String({
  maxLength: 100,
  description: 'The render (rnd_...).',
  examples: ['rnd_01hzy3k2m5x8q9r0s1t2u3v4w5'],
})
export const RenderIdParams = Type.Object({ render_id: RenderId })
export const RenderFileParams = Type.Object({
  render_id: RenderId,
  file_id: Type.String({
    maxLength: 100,
    description: "One of the render's files (file_...).",
    examples: ['file_01kaz3p4q6r8s0t2v4w6x8y0za'],
  }),
})
