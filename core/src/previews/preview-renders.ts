import type { AuthContext } from '../api-keys/api-key-service.ts'
import { oneOfMessage } from '../http/validation-errors.ts'
import { validationProblem } from '../kernel/problem-error.ts'
import type { Plan } from '../plans/plan.ts'
import type { Render } from '../renders/render.ts'
import { normaliseRender, optionsKeyOf } from '../renders/render-request.ts'
import type { RenderService } from '../renders/render-service.ts'
import type { OutputFormat } from '../sdk/render-contracts.ts'
import type { TemplateRenderInput } from '../templates/template-render-input.ts'
import type { PreviewRequest, PreviewSources } from './preview-source.ts'

export interface RenderPreviewRequest extends PreviewRequest {
  /** as on renders: only the engine that draws the format, or null */
  engine?: string | null
  output: {
    format?: string
    pdf?: Record<string, unknown> | null
    image?: Record<string, unknown> | null
  } | null
}

const IMAGE_FORMATS = ['png', 'jpeg', 'webp']

/**
 * Image and PDF previews (decision 0012) are test renders made on the caller's behalf whatever
 * its key's mode: the same queue and workers as any render (so an API-only process works),
 * watermarked like every test render and never billed. They wait like a sync render.
 */
export class PreviewRenders {
  readonly #sources: PreviewSources
  readonly #renders: RenderService

  constructor(deps: { previewSources: PreviewSources; renderService: RenderService }) {
    this.#sources = deps.previewSources
    this.#renders = deps.renderService
  }

  async create(
    auth: AuthContext,
    plan: Plan,
    kind: 'image' | 'pdf',
    req: RenderPreviewRequest,
  ): Promise<Render> {
    const source = await this.#sources.resolve(auth, req)
    const format = (kind === 'pdf' ? 'pdf' : (req.output?.format ?? 'png')) as OutputFormat
    if (
      kind === 'pdf'
        ? req.output?.format !== undefined && req.output.format !== 'pdf'
        : !IMAGE_FORMATS.includes(format)
    ) {
      throw validationProblem([
        {
          path: '/output/format',
          code: 'enum',
          message: kind === 'pdf' ? 'must be pdf' : oneOfMessage(IMAGE_FORMATS),
        },
      ])
    }
    const key = optionsKeyOf(format, req.output, '/output')
    let options = { ...(req.output?.[key] ?? {}) }
    // SPEC 4.10: a PDF preview asking for PDF/UA is tagged and made as the render would be (the
    // PDF/UA step runs); it and a tagged preview carry the PDF/UA-1 report and never fail on it
    // (the render runner does not fail a preview on a report)
    if (kind === 'pdf' && options.pdfua === true) options = { ...options, tagged: true }
    const input: TemplateRenderInput = {
      type: 'template',
      template_id: source.templateId,
      version: req.version ?? 'draft',
      version_id: null,
      version_number: null,
      template_type: source.type,
      overrides: [],
      content: source.content,
      preview: true,
    }
    const asTest: AuthContext = { ...auth, test: true }
    const normalised = normaliseRender(
      asTest,
      { engine: req.engine ?? null },
      input,
      { format, ...(Object.keys(options).length ? { [key]: options } : {}) },
      `/output/${key}`,
    )
    normalised.request.data = source.data
    return this.#renders.create(asTest, plan, {
      ...normalised,
      kind: 'preview',
      source: 'preview',
      ...(source.templateId ? { templateId: source.templateId } : {}),
    })
  }
}
