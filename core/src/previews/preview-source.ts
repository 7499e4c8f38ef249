import type { AuthContext } from '../api-keys/api-key-service.ts'
import { validationProblem } from '../kernel/problem-error.ts'
import type { TemplateContent, TemplateType } from '../templates/template.ts'
import { contentProblems } from '../templates/template-content.ts'
import type { TemplateService } from '../templates/template-service.ts'

/** What a preview request names: a stored template (its draft by default), inline content, or both. */
export interface PreviewRequest {
  template_id?: string | undefined
  template_type?: TemplateType | undefined
  version?: 'live' | 'draft' | number | undefined
  /** inline content; with `template_id` its fields replace the template's */
  content?: TemplateContent | null | undefined
  data?: Record<string, unknown> | null | undefined
}

export interface PreviewSource {
  templateId: string | null
  type: TemplateType
  content: TemplateContent
  data: Record<string, unknown>
}

/**
 * Resolves what a preview renders (SPEC 4.10). A stored template is read through the same
 * checks as any template use (allowlist 403, 404, 410); without `version` it is the draft, the
 * thing being edited. Data: the request's, else the default dataset's, else the sample data.
 */
export class PreviewSources {
  readonly #templates: TemplateService

  constructor(deps: { templateService: TemplateService }) {
    this.#templates = deps.templateService
  }

  async resolve(auth: AuthContext, request: PreviewRequest): Promise<PreviewSource> {
    if (!request.template_id) {
      if (!request.template_type) {
        throw validationProblem([
          { path: '/template_type', code: 'required', message: 'is required without template_id' },
        ])
      }
      const content = request.content ?? {}
      const problems = contentProblems(request.template_type, content, '/content')
      if (problems.length > 0) throw validationProblem(problems)
      return { templateId: null, type: request.template_type, content, data: request.data ?? {} }
    }
    const template = await this.#templates.get(auth, request.template_id)
    if (request.template_type && request.template_type !== template.type) {
      throw validationProblem([
        {
          path: '/template_type',
          code: 'conflict',
          message: `template ${template.id} is a ${template.type} template`,
        },
      ])
    }
    const version = request.version ?? 'draft'
    const stored =
      version === 'draft'
        ? template.draft
        : await this.#templates.version(template, version === 'live' ? (template.live_version ?? 0) : version)
    const content = { ...stored.content, ...request.content }
    if (request.content) {
      const problems = contentProblems(template.type, content, '/content')
      if (problems.length > 0) throw validationProblem(problems)
    }
    const data = request.data ?? (await this.#templates.defaultData(template)) ?? stored.sample_data ?? {}
    return { templateId: template.id, type: template.type, content, data }
  }
}
