import type { AuthContext } from '../api-keys/api-key-service.ts'
import { assertTemplateAllowed } from '../api-keys/template-allowlist.ts'
import { newId } from '../kernel/ids.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import { RenderValidation } from '../renders/render-validation.ts'
import type { DatasetRepository } from './dataset-repository.ts'
import type { Template, TemplateContent, TemplateDraft, TemplateType, TemplateVersion } from './template.ts'
import { contentProblems, FLAT_CONTENT_FIELDS } from './template-content.ts'
import type { TemplateRepository } from './template-repository.ts'

export interface CreateTemplateInput {
  type: TemplateType
  name: string
  description?: string | null
  content?: TemplateContent
  data_schema?: Record<string, unknown> | null
  sample_data?: Record<string, unknown> | null
  /** flat content fields (`html`, `markdown`, `layers`...) instead of `content` */
  [field: string]: unknown
}

export interface DraftInput {
  revision: number
  content: TemplateContent
  data_schema?: Record<string, unknown> | null
  sample_data?: Record<string, unknown> | null
}

/** `version` of a template reference: a number, a `tv_` id, `live` or `draft` (SPEC 2.16). */
export type VersionRef = number | string

/** Template records: create, read, draft, lock, trash, rollback (publishing: TemplatePublisher). */
export class TemplateService {
  readonly #templates: TemplateRepository
  readonly #plugins: PluginSet
  readonly #validation: RenderValidation
  readonly #datasets: DatasetRepository

  constructor({
    templateRepository,
    datasetRepository,
    plugins,
  }: { templateRepository: TemplateRepository; datasetRepository: DatasetRepository; plugins: PluginSet }) {
    this.#templates = templateRepository
    this.#datasets = datasetRepository
    this.#plugins = plugins
    this.#validation = new RenderValidation(plugins.registries)
  }

  /** 400 when content does not fit the type, or its `pdf` options are not the PDF output's. */
  #assertContent(type: TemplateType, content: TemplateContent, at: string): void {
    const problems = contentProblems(type, content, at)
    if (problems.length > 0) throw validationProblem(problems)
    if (content.pdf !== undefined && this.#plugins.registries.outputs.get('pdf')) {
      // a copy: the check fills in schema defaults, which the draft should not store
      this.#validation.assertOutput({ format: 'pdf', options: structuredClone(content.pdf), at: `${at}/pdf` })
    }
  }

  async create(auth: AuthContext, input: CreateTemplateInput, now = new Date()): Promise<Template> {
    if (auth.key.template_allowlist) {
      // the new template could not be in the list: a restricted key stays within its templates
      throw new ProblemError(
        'template_not_allowed_for_key',
        'This key is limited to a template allowlist and cannot create templates.',
      )
    }
    const flat = Object.fromEntries(
      FLAT_CONTENT_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]),
    )
    if (input.content !== undefined && Object.keys(flat).length > 0) {
      throw validationProblem(
        Object.keys(flat).map((f) => ({
          path: `/${f}`,
          code: 'conflict',
          message: 'send content fields flat or inside `content`, not both',
        })),
      )
    }
    const content = input.content ?? flat
    this.#assertContent(input.type, content, input.content !== undefined ? '/content' : '')
    const at = now.toISOString()
    const template: Template = {
      id: newId('template'),
      workspace_id: auth.workspace.id,
      type: input.type,
      name: input.name,
      description: input.description ?? null,
      draft: { content, data_schema: input.data_schema ?? null, sample_data: input.sample_data ?? null },
      draft_revision: 1,
      live_version: null,
      latest_version: 0,
      locked: false,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    }
    await this.#templates.insert(template)
    return template
  }

  async list(
    auth: AuthContext,
    query: { q?: string; type?: TemplateType; cursor?: string; limit: number },
  ): Promise<{ items: Template[]; hasMore: boolean }> {
    const page = await this.#templates.list({
      workspaceId: auth.workspace.id,
      limit: query.limit,
      ...(query.q ? { q: query.q } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.cursor ? { before: query.cursor } : {}),
      // a key with an allowlist sees only those templates
      ...(auth.key.template_allowlist ? { ids: auth.key.template_allowlist } : {}),
    })
    return { items: page.slice(0, query.limit), hasMore: page.length > query.limit }
  }

  /** The template, also from the trash: 403 outside the key's allowlist, 404 when unknown. */
  async find(auth: AuthContext, id: string): Promise<Template> {
    assertTemplateAllowed(auth, id)
    const template = await this.#templates.get(auth.workspace.id, id)
    if (!template) throw new ProblemError('template_not_found', `No template ${id}.`)
    return template
  }

  /** As `find`, and 410 template_deleted for a template in the trash. */
  async get(auth: AuthContext, id: string): Promise<Template> {
    const template = await this.find(auth, id)
    if (template.deleted_at) {
      throw new ProblemError('template_deleted', `Template ${id} was deleted on ${template.deleted_at}.`)
    }
    return template
  }

  async replaceDraft(auth: AuthContext, id: string, input: DraftInput, now = new Date()): Promise<Template> {
    const template = await this.get(auth, id)
    assertUnlocked(template, 'its draft cannot be replaced')
    this.#assertContent(template.type, input.content, '/content')
    const draft: TemplateDraft = {
      content: input.content,
      data_schema: input.data_schema ?? null,
      sample_data: input.sample_data ?? null,
    }
    if (
      input.revision !== template.draft_revision ||
      !(await this.#templates.replaceDraft(id, input.revision, draft, now.toISOString()))
    ) {
      throw new ProblemError(
        'draft_revision_conflict',
        `The draft changed since revision ${input.revision}; read it again and reapply your change.`,
        { current_revision: (await this.#templates.get(auth.workspace.id, id))?.draft_revision },
      )
    }
    return this.get(auth, id)
  }

  async setLocked(auth: AuthContext, id: string, locked: boolean, now = new Date()): Promise<Template> {
    const template = await this.get(auth, id)
    if (template.locked !== locked) await this.#templates.update(id, { locked }, now.toISOString())
    return this.get(auth, id)
  }

  /** Moves the template to the trash (SPEC 2.6); it is purged after 30 days. */
  async delete(auth: AuthContext, id: string, now = new Date()): Promise<Template> {
    const template = await this.get(auth, id)
    assertUnlocked(template, 'it cannot be deleted')
    await this.#templates.update(id, { deleted_at: now.toISOString() }, now.toISOString())
    return this.find(auth, id)
  }

  /** Points `live_version` at an existing version: nothing is re-rendered, no version is made. */
  async rollback(auth: AuthContext, id: string, ref: VersionRef, now = new Date()): Promise<Template> {
    const template = await this.get(auth, id)
    const version = await this.version(template, ref)
    await this.#templates.update(id, { live_version: version.number }, now.toISOString())
    return this.get(auth, id)
  }

  /** The data of a template's default dataset, if it has one: how other features (previews) read it. */
  async defaultData(template: Template): Promise<Record<string, unknown> | undefined> {
    return (await this.#datasets.default(template.id))?.data
  }

  /** A published version by number or `tv_` id; 404 version_not_found. */
  async version(template: Template, ref: VersionRef): Promise<TemplateVersion> {
    const asNumber = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined
    const version =
      asNumber !== undefined
        ? await this.#templates.version(template.id, asNumber)
        : typeof ref === 'string' && ref.startsWith('tv_')
          ? await this.#templates.version(template.id, ref)
          : undefined
    if (!version) {
      throw new ProblemError('version_not_found', `Template ${template.id} has no version ${ref}.`)
    }
    return version
  }

  async versions(
    template: Template,
    limit: number,
    cursor?: number,
  ): Promise<{ items: TemplateVersion[]; hasMore: boolean }> {
    const page = await this.#templates.versions(template.id, limit, cursor)
    return { items: page.slice(0, limit), hasMore: page.length > limit }
  }
}

/** SPEC 7.3: a locked template refuses draft replacement and deletion through the API. */
function assertUnlocked(template: Template, what: string): void {
  if (template.locked) {
    throw new ProblemError('template_locked', `Template ${template.id} is locked: ${what}. Unlock it first.`)
  }
}
