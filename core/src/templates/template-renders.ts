import type { AuthContext } from '../api-keys/api-key-service.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { CreateRenderInput } from '../renders/render-service.ts'
import { assertDataMatches } from './data-schema.ts'
import type { DatasetRepository } from './dataset-repository.ts'
import type { Template, TemplateContent } from './template.ts'
import { overrideProblems } from './template-document.ts'
import type { TemplateRenderInput } from './template-render-input.ts'
import type { TemplateService } from './template-service.ts'

/** A template reference of a render request (SPEC 2.16, 4.2). */
export interface TemplateRef {
  template_id: string
  version?: 'live' | 'draft' | number | undefined
  dataset_id?: string | undefined
  overrides?: Record<string, unknown>[] | null | undefined
  /** where `dataset_id` sits in the request, for error pointers (default `/dataset_id`) */
  datasetPointer?: string
}

const IMAGE_CANVAS_FORMATS = ['png', 'jpeg', 'webp', 'pdf']

/**
 * The `pdf` options an image_canvas PDF honours (decision 0121): the finishing every PDF gets,
 * and the locale of the templated filename. The rest set up a browser's print (paper, margins,
 * header, tags, outline), and PDF/UA needs a tagged document a picture per page cannot be.
 */
const CANVAS_PDF_OPTIONS = new Set(['metadata', 'attachments', 'protect', 'pdfa', 'locale'])

/**
 * Creation-time work of a template render, done before the render row exists so the client
 * hears about it synchronously: the key may use the template (403), it exists and is not in the
 * trash (404, 410), the version exists (404) and a draft is allowed (403 test_key_required), the
 * data matches the version's schema (422 data_schema_mismatch), overrides fit the template (400).
 */
export class TemplateRenders {
  readonly #templates: TemplateService
  readonly #datasets: DatasetRepository

  constructor(deps: { templateService: TemplateService; datasetRepository: DatasetRepository }) {
    this.#templates = deps.templateService
    this.#datasets = deps.datasetRepository
  }

  async prepare(auth: AuthContext, render: CreateRenderInput, ref: TemplateRef): Promise<CreateRenderInput> {
    const template = await this.#templates.get(auth, ref.template_id)
    const asked = ref.version ?? 'live'
    const resolved = await this.#resolve(auth, template, asked)
    const overrides = ref.overrides ?? []
    const problems = overrideProblems(template.type, resolved.content, overrides, '/overrides')
    const { request } = render
    if (template.type === 'image_canvas' && !IMAGE_CANVAS_FORMATS.includes(request.output.format)) {
      problems.push({
        path: '/output/format',
        code: 'enum',
        message: `an image_canvas template renders ${IMAGE_CANVAS_FORMATS.join(', ')}`,
      })
    }
    if (template.type === 'image_canvas' && request.output.format === 'pdf') {
      for (const [key, value] of Object.entries(request.output.pdf ?? {})) {
        if (value === undefined || CANVAS_PDF_OPTIONS.has(key)) continue
        problems.push({
          path: `${render.optionsPointer}/${key}`,
          code: 'conflict',
          message: `an image_canvas template is drawn as a picture, not printed by a browser: ${key} cannot apply to its PDF; leave it out (it takes ${[...CANVAS_PDF_OPTIONS].join(', ')})`,
        })
      }
    }
    if (problems.length > 0) throw validationProblem(problems)
    if (request.data_url === null) {
      request.data = request.data ?? (await this.#datasetData(template, ref))
      assertDataMatches(resolved.data_schema, request.data)
    }
    const pdfDefaults = resolved.content.pdf as Record<string, unknown> | undefined
    if (request.output.format === 'pdf' && pdfDefaults) {
      // the template's page setup, under what the request says
      request.output.pdf = { ...pdfDefaults, ...request.output.pdf }
    }
    const input: TemplateRenderInput = {
      type: 'template',
      template_id: template.id,
      version: asked,
      version_id: resolved.id,
      version_number: resolved.number,
      template_type: template.type,
      overrides,
      ...(ref.dataset_id ? { dataset_id: ref.dataset_id } : {}),
    }
    return { ...render, request: { ...request, input }, templateId: template.id }
  }

  async #resolve(
    auth: AuthContext,
    template: Template,
    version: 'live' | 'draft' | number,
  ): Promise<{
    id: string | null
    number: number | null
    content: TemplateContent
    data_schema: Record<string, unknown> | null
  }> {
    if (version === 'draft') {
      if (!auth.test && !auth.workspace.settings.allow_live_drafts) {
        throw new ProblemError(
          'test_key_required',
          'Rendering a draft needs a test key unless the workspace allows live keys to render drafts.',
        )
      }
      return { id: null, number: null, ...template.draft }
    }
    if (version === 'live' && template.live_version === null) {
      throw new ProblemError(
        'version_not_found',
        `Template ${template.id} has no live version yet: publish it, or render version "draft" with a test key.`,
      )
    }
    const found = await this.#templates.version(
      template,
      version === 'live' ? template.live_version! : version,
    )
    return { id: found.id, number: found.number, content: found.content, data_schema: found.data_schema }
  }

  /** Data for a render that sent none: the named dataset, else the template's default one. */
  async #datasetData(template: Template, ref: TemplateRef): Promise<Record<string, unknown>> {
    const datasetId = ref.dataset_id
    if (datasetId) {
      const dataset = await this.#datasets.get(template.id, datasetId)
      if (!dataset) {
        throw validationProblem([
          {
            path: ref.datasetPointer ?? '/dataset_id',
            code: 'not_found',
            message: `template ${template.id} has no dataset ${datasetId}`,
          },
        ])
      }
      return dataset.data
    }
    return (await this.#datasets.default(template.id))?.data ?? {}
  }
}
