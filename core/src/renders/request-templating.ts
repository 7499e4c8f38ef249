import type { RenderWarningCode } from '../sdk/render-contracts.ts'
import type { TemplateCapabilities } from '../templates/template-capabilities.ts'
import { templateEngine } from '../templates/template-capabilities.ts'
import type { RenderRequest } from './render.ts'

// SPEC 4.2: `filename` may use template expressions. A render whose document is templated (a
// template, or inline HTML or Markdown with `templating: true`) runs its `filename` through the
// template engine with the render's data, and an inline document also its `pdf.header_html` and
// `pdf.footer_html` (a template's header and footer come from the template, rendered with it).
// The one path for both kinds of render: the runner calls it before anything is printed.

const HAS_LIQUID = /\{[{%]/

/** What the template engine made of the request's own fields; unchanged fields are left out. */
export interface TemplatedFields {
  filename?: string
  header_html?: string
  footer_html?: string
}

function isTemplated(request: RenderRequest): boolean {
  return request.input.type === 'template' || request.input.templating === true
}

export async function templateRequestFields(
  registries: TemplateCapabilities,
  request: RenderRequest,
  data: Record<string, unknown>,
  run: { locale?: string; warn(code: RenderWarningCode, message: string): void },
): Promise<TemplatedFields> {
  if (!isTemplated(request)) return {}
  const sources: [keyof TemplatedFields, unknown][] = [['filename', request.filename]]
  if (request.input.type !== 'template' && request.output.format === 'pdf') {
    sources.push(
      ['header_html', request.output.pdf?.header_html],
      ['footer_html', request.output.pdf?.footer_html],
    )
  }
  const out: TemplatedFields = {}
  for (const [label, source] of sources) {
    if (typeof source !== 'string' || !HAS_LIQUID.test(source)) continue
    const rendering = await templateEngine(registries).render(source, data, {
      label,
      ...(run.locale ? { locale: run.locale } : {}),
    })
    for (const w of rendering.warnings) run.warn(w.code, w.message)
    out[label] = rendering.output
  }
  return out
}
