import { type Static, Type } from 'typebox'

// The `wait` option of every input Chromium loads (url, html, markdown): one schema, so the
// inputs cannot drift apart, and one implementation of it (the chromium plugin's page loader).
// Everything in it shares one budget: `timeout_ms`, never more than the render's own deadline.

export const MAX_WAIT_TIMEOUT_MS = 120_000
export const MAX_WAIT_DELAY_MS = 30_000
export const MAX_WAIT_EXPRESSION_LENGTH = 4096

export const WaitOptionsSchema = Type.Object(
  {
    until: Type.Optional(
      Type.Enum(['load', 'domcontentloaded', 'networkidle'], {
        description:
          'The loading milestone to wait for before anything else: `load` (the default: the document and its images, styles and fonts), `domcontentloaded` (the HTML is parsed, assets may still load) or `networkidle` (no request for 500 ms, for pages that fetch their data with scripts).',
        examples: ['networkidle'],
      }),
    ),
    selector: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          'A CSS selector; the page is printed once an element matches it (for example one your script adds when the chart is drawn).',
        examples: ['#chart svg', '.report[data-ready]'],
      }),
    ),
    expression: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_WAIT_EXPRESSION_LENGTH,
        description:
          'A JavaScript expression evaluated in the page (never on the server) every 100 ms until it is truthy; it may return a promise. An expression that throws counts as not yet true, and the last error is named if the wait times out. A syntax error is refused at once.',
        examples: ['window.chartReady === true', "document.querySelectorAll('.row').length >= 10"],
      }),
    ),
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_WAIT_TIMEOUT_MS,
        description:
          "The budget for loading and every wait condition together. Past it the render fails with `wait_timeout`. The render's own time limit caps it. Default: 30000 for a URL; the render's time limit for HTML and Markdown.",
        examples: [10_000],
      }),
    ),
    delay_ms: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_DELAY_MS,
        description:
          "Extra time to wait after the other conditions are met (for animations that finish after the signal), cut short by the render's time limit.",
        examples: [500],
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'When the page is ready to print or capture. Scripts that draw after the page has loaded (charts, data fetched by the page) need one of `selector`, `expression`, `until: "networkidle"` or `delay_ms`.',
    examples: [{ selector: '#chart svg', timeout_ms: 10_000 }, { expression: 'window.chartReady === true' }],
  },
)

export type WaitOptionsFields = Static<typeof WaitOptionsSchema>
