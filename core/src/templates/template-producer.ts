import type { Config } from '../kernel/config.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { Render, RenderRequest } from '../renders/render.ts'
import type { ProducerContext, ProducerWork, Production } from '../sdk/producer-contracts.ts'
import type { RenderedFile, WaitOptions } from '../sdk/render-contracts.ts'
import type { TestMark } from '../test-mark/test-mark.ts'
import { assertDataMatches } from './data-schema.ts'
import type { TemplateContent } from './template.ts'
import { sceneRenderer } from './template-capabilities.ts'
import { applyOverrides, renderTemplateHtml } from './template-document.ts'
import { isPreparedTemplateInput, type TemplateRenderInput } from './template-render-input.ts'
import type { TemplateRepository } from './template-repository.ts'

/** Renders `input.type: template` (prepared at creation by TemplateRenders). */
export class TemplateProducer implements ProducerWork {
  readonly #templates: TemplateRepository
  readonly #testMark: TestMark
  readonly #maxPixels: number
  readonly #plugins: Pick<PluginSet, 'registries'>

  constructor({
    templateRepository,
    testMark,
    config,
    plugins,
  }: {
    templateRepository: TemplateRepository
    testMark: TestMark
    config: Pick<Config, 'canvasMaxPixels'>
    plugins: Pick<PluginSet, 'registries'>
  }) {
    this.#templates = templateRepository
    this.#testMark = testMark
    this.#maxPixels = config.canvasMaxPixels
    this.#plugins = plugins
  }

  validate(request: RenderRequest): void {
    // the routes resolve every template input before it reaches the render service
    if (!isPreparedTemplateInput(request.input)) {
      throw validationProblem([{ path: '/input/template_id', code: 'required', message: 'is required' }])
    }
  }

  /** an image_canvas template is drawn by the scene renderer, not by the format's output */
  drawsWithOutput(request: RenderRequest): boolean {
    return request.input.template_type !== 'image_canvas'
  }

  async produce(ctx: ProducerContext): Promise<Production> {
    const input = ctx.render.request.input as TemplateRenderInput
    const source = await this.#source(ctx.render, input)
    // data from data_url arrives only now: its schema check is the worker's
    if (ctx.render.request.data_url) assertDataMatches(source.data_schema, ctx.data)
    const content = applyOverrides(input.template_type, source.content, input.overrides)
    const file =
      input.template_type === 'image_canvas'
        ? await this.#canvas(ctx, content)
        : await this.#page(ctx, input, content)
    return {
      files: [file],
      ...(input.preview ? { billed: false } : {}),
    }
  }

  async #source(
    render: Render,
    input: TemplateRenderInput,
  ): Promise<{ content: TemplateContent; data_schema: Record<string, unknown> | null }> {
    if (input.content) return { content: input.content, data_schema: null }
    const template = input.template_id
      ? await this.#templates.get(render.workspace_id, input.template_id)
      : undefined
    if (!template) throw new ProblemError('template_not_found', `No template ${input.template_id}.`)
    if (template.deleted_at)
      throw new ProblemError('template_deleted', `Template ${template.id} was deleted.`)
    if (input.version_id === null) return template.draft
    const version = await this.#templates.version(template.id, input.version_id)
    if (!version)
      throw new ProblemError('version_not_found', `No version ${input.version_number} of ${template.id}.`)
    return version
  }

  async #page(
    ctx: ProducerContext,
    input: TemplateRenderInput,
    content: TemplateContent,
  ): Promise<RenderedFile> {
    const page = await renderTemplateHtml(
      this.#plugins.registries,
      input.template_type as 'pdf_code',
      content,
      ctx.data,
      ctx.locale ? { locale: ctx.locale } : {},
    )
    for (const w of page.warnings) ctx.warn(w.code, w.message)
    const { output } = ctx.render.request
    if (output.format === 'pdf' && (page.header_html || page.footer_html)) {
      // print() reads the render's stored output options: the rendered header and footer join them
      output.pdf = {
        ...output.pdf,
        ...(page.header_html ? { header_html: page.header_html } : {}),
        ...(page.footer_html ? { footer_html: page.footer_html } : {}),
      }
    }
    const wait = content.wait as WaitOptions | undefined
    return ctx.print({ kind: 'html', html: page.html, ...(wait ? { wait } : {}) })
  }

  async #canvas(ctx: ProducerContext, scene: TemplateContent): Promise<RenderedFile> {
    const { output } = ctx.render.request
    const file = await sceneRenderer(this.#plugins.registries).render(scene, ctx.data, {
      format: output.format as 'png' | 'jpeg' | 'webp' | 'pdf',
      ...(output.image ? { image: output.image } : {}),
      fetch: ctx.fetch,
      maxPixels: this.#maxPixels,
      signal: ctx.signal,
      warn: ctx.warn,
    })
    // the canvas draws no mark of its own: it is stamped as on every other output
    return ctx.render.test ? this.#testMark(file, output.image) : file
  }
}
