import type { TSchema } from 'typebox'
import type { GuardedFetch, RenderedFile, RenderWarning, RenderWarningCode } from './render-contracts.ts'

// What core's templates and previews need from plugins to turn a stored template into a document
// (docs/decisions/0036-core-imports-no-plugin.md). Core names the key it needs (`liquid`,
// `markdown`, `html`, `image_canvas`) and refuses with service_unavailable when no plugin
// registered it, so a third party can replace the template engine or the document builders.

export interface TemplateRunOptions {
  /** names the source in error details when a request has several (e.g. `footer_html`) */
  label?: string
  /** sources `include` and `render` may name; nothing else is reachable */
  partials?: Record<string, string>
  /** an undefined variable fails with template_runtime_error instead of printing nothing */
  strictVariables?: boolean
  /** the default locale of number, money and date filters (the render's output locale) */
  locale?: string
}

export interface TemplateRendering {
  output: string
  /** raised by filters, e.g. `locale_unsupported` */
  warnings: RenderWarning[]
}

/**
 * A template language (registry `templateEngines`, core asks for `liquid`). Failures are
 * ProblemErrors: template_syntax_error, template_runtime_error, template_fuel_exhausted.
 */
export interface TemplateEngine {
  render(
    source: string,
    data: Record<string, unknown>,
    options?: TemplateRunOptions,
  ): Promise<TemplateRendering>
  /** parses the source and every partial without running them; throws template_syntax_error */
  checkSyntax(source: string, options?: Pick<TemplateRunOptions, 'label' | 'partials'>): void
}

export interface DocumentSource {
  /** the body in the builder's language: HTML for `html`, Markdown for `markdown` */
  content: string
  /** markup for the document's head (`html`: added to an existing head, or a head is made) */
  head?: string
  /** extra CSS after the theme's (`markdown`) */
  css?: string
  /** a theme name the builder knows (`markdown`) */
  theme?: string
}

/**
 * Makes a whole HTML document from a source (registry `documentBuilders`, core asks for `html`
 * and `markdown`). Synchronous and pure: no I/O, no template code.
 */
export interface DocumentBuilder {
  build(source: DocumentSource): string
}

export interface SceneRenderOptions {
  format: 'png' | 'jpeg' | 'webp' | 'pdf'
  /** the render's image options (width, height, device_scale_factor, quality, transparent) */
  image?: Record<string, unknown>
  /** image sources go through the SSRF guard */
  fetch: GuardedFetch
  /** the installation's pixel budget of one raster */
  maxPixels: number
  signal: AbortSignal
  warn(code: RenderWarningCode, message: string): void
}

/**
 * Draws image_canvas templates without a browser (registry `sceneRenderers`, core asks for
 * `image_canvas`). `validate` throws scene_invalid naming each problem.
 */
export interface SceneRenderer {
  /** JSON Schema of a scene (its `layers` above all); the OpenAPI document shows it to clients */
  readonly schema?: TSchema
  validate(scene: unknown): void
  render(scene: unknown, data: Record<string, unknown>, options: SceneRenderOptions): Promise<RenderedFile>
}
