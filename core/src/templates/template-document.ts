import type { RenderWarning } from '../sdk/render-contracts.ts'
import type { TemplateContent, TemplateType } from './template.ts'
import { documentBuilder, type TemplateCapabilities, templateEngine } from './template-capabilities.ts'
import { partialsOf } from './template-content.ts'

export interface LiquidRun {
  /** an undefined variable fails with template_runtime_error (previews' `strict_undefined`) */
  strictVariables?: boolean
  /** partials on top of the template's own (previews) */
  partials?: Record<string, string>
  /** the output's locale: the default of the number and date filters */
  locale?: string
}

/** A pdf_code or pdf_markdown template rendered with data: the page and its header and footer. */
export interface TemplateHtml {
  html: string
  header_html?: string
  footer_html?: string
  /** raised by filters (e.g. locale_unsupported) */
  warnings: RenderWarning[]
}

function styleTag(css: string): string {
  // `</style` inside CSS would end the element and let markup in
  return `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`
}

/**
 * Liquid over the template's sources, then the document: pdf_code's HTML with its CSS in the
 * head; pdf_markdown's Markdown through the markdown builder and its themes. Errors are the
 * template engine's ProblemErrors with the line and column of the source they come from; a
 * missing engine or builder is service_unavailable before any source is run.
 */
export async function renderTemplateHtml(
  registries: TemplateCapabilities,
  type: Exclude<TemplateType, 'image_canvas'>,
  content: TemplateContent,
  data: Record<string, unknown>,
  run: LiquidRun = {},
): Promise<TemplateHtml> {
  const engine = templateEngine(registries)
  const builder = documentBuilder(registries, type === 'pdf_code' ? 'html' : 'markdown')
  const partials = { ...partialsOf(content), ...run.partials }
  const warnings: RenderWarning[] = []
  const liquid = async (source: string, label?: string) => {
    const rendering = await engine.render(source, data, {
      partials,
      strictVariables: run.strictVariables ?? false,
      ...(run.locale ? { locale: run.locale } : {}),
      ...(label ? { label } : {}),
    })
    warnings.push(...rendering.warnings)
    return rendering.output
  }
  const css = typeof content.css === 'string' && content.css.trim() !== '' ? content.css : undefined
  let html: string
  if (type === 'pdf_code') {
    html = await liquid(String(content.html ?? ''))
    if (css) html = builder.build({ content: html, head: styleTag(css) })
    else if (!/<html[\s>]/i.test(html)) html = builder.build({ content: html, head: '' })
  } else {
    html = builder.build({
      content: await liquid(String(content.markdown ?? '')),
      theme: (content.theme as string | undefined) ?? 'default',
      css: css ?? '',
    })
  }
  const out: TemplateHtml = { html, warnings }
  for (const field of ['header_html', 'footer_html'] as const) {
    const source = content[field]
    if (typeof source === 'string' && source !== '') out[field] = await liquid(source, field)
  }
  return out
}

/**
 * SPEC 4.2 `overrides` applied to a version's content, without changing what is stored:
 * image_canvas overrides name a layer (`{ "name": "title", "text": "..." }`) and set its
 * properties; pdf_code and pdf_markdown overrides may add `css` (after the template's) and replace
 * `header_html` / `footer_html`.
 */
export function applyOverrides(
  type: TemplateType,
  content: TemplateContent,
  overrides: Record<string, unknown>[],
): TemplateContent {
  if (overrides.length === 0) return content
  if (type === 'image_canvas') {
    const layers = ((content.layers as Record<string, unknown>[] | undefined) ?? []).map((layer) => {
      const own = overrides.filter((o) => o.name === layer.name)
      return own.length === 0 ? layer : Object.assign({ ...layer }, ...own)
    })
    return { ...content, layers }
  }
  const next = { ...content }
  for (const o of overrides) {
    if (typeof o.css === 'string') next.css = `${String(next.css ?? '')}\n${o.css}`
    if (typeof o.header_html === 'string') next.header_html = o.header_html
    if (typeof o.footer_html === 'string') next.footer_html = o.footer_html
  }
  return next
}

/** Problems of `overrides` for a template type, as JSON Pointers under `at`. */
export function overrideProblems(
  type: TemplateType,
  content: TemplateContent,
  overrides: Record<string, unknown>[],
  at: string,
): { path: string; code: string; message: string }[] {
  const problems: { path: string; code: string; message: string }[] = []
  const layerNames = new Set(
    ((content.layers as Record<string, unknown>[] | undefined) ?? []).map((l) => l.name).filter(Boolean),
  )
  overrides.forEach((o, i) => {
    if (type === 'image_canvas') {
      if (typeof o.name !== 'string' || !layerNames.has(o.name)) {
        problems.push({
          path: `${at}/${i}/name`,
          code: 'unknown_layer',
          message: 'must name a layer of the template',
        })
      }
      return
    }
    for (const [key, value] of Object.entries(o)) {
      if (!['css', 'header_html', 'footer_html'].includes(key)) {
        problems.push({ path: `${at}/${i}/${key}`, code: 'unknown_field', message: 'is not a known field' })
      } else if (typeof value !== 'string') {
        problems.push({ path: `${at}/${i}/${key}`, code: 'type', message: 'must be string' })
      }
    }
  })
  return problems
}
