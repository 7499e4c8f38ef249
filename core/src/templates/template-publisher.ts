import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { Db } from '../db/database.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { type FieldProblem, INTERNAL_FAILURE_MESSAGE, ProblemError } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import { assertDataMatches, dataSchemaError } from './data-schema.ts'
import type { DatasetRepository } from './dataset-repository.ts'
import type { Template, TemplateVersion } from './template.ts'
import { sceneRenderer, templateEngine } from './template-capabilities.ts'
import { partialsOf } from './template-content.ts'
import { renderTemplateHtml } from './template-document.ts'
import type { TemplateRepository } from './template-repository.ts'
import type { TemplateService } from './template-service.ts'

/** a publish check's sample image render, fetches and all */
const SAMPLE_RENDER_MS = 10_000

export type StepName = 'syntax' | 'scene' | 'data_schema' | 'sample_data' | 'sample_render'

export interface PublishStep {
  name: StepName
  status: 'passed' | 'failed' | 'skipped'
  code?: string
  message?: string
  line?: number
  column?: number
  excerpt?: string
  errors?: unknown[]
}

/** What publishing checked (SPEC 4.9 `publish_run`), step by step. */
export interface PublishRun {
  object: 'publish_run'
  status: 'passed' | 'failed'
  steps: PublishStep[]
}

function failedStep(name: StepName, err: unknown): PublishStep {
  if (!(err instanceof ProblemError)) {
    return { name, status: 'failed', code: 'render_failed', message: INTERNAL_FAILURE_MESSAGE }
  }
  const { line, column, excerpt, errors } = err.extras as Partial<PublishStep>
  return {
    name,
    status: 'failed',
    code: err.code,
    message: err.detail ?? err.message,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(excerpt !== undefined ? { excerpt } : {}),
    ...(errors ? { errors } : {}),
  }
}

interface PublisherDeps {
  db: Db
  templateRepository: TemplateRepository
  templateService: TemplateService
  datasetRepository: DatasetRepository
  eventOutbox: EventOutbox
  outboundGuard: OutboundGuard
  config: Pick<Config, 'canvasMaxPixels'>
  plugins: Pick<PluginSet, 'registries'>
}

/**
 * Publishing (DESIGN.md §10: `POST /v1/templates/{id}/publish`): the draft must parse, its data
 * schema must be valid JSON Schema, and the sample data must match it and render. Then a numbered
 * version is stored, made live and `template.published` is written, in one transaction.
 */
export class TemplatePublisher {
  readonly #d: PublisherDeps

  constructor(deps: PublisherDeps) {
    this.#d = deps
  }

  async publish(
    auth: AuthContext,
    id: string,
    options: { notes?: string | null; revision?: number },
    now = new Date(),
  ): Promise<{ template: Template; version: TemplateVersion; run: PublishRun }> {
    const template = await this.#d.templateService.get(auth, id)
    if (options.revision !== undefined && options.revision !== template.draft_revision) {
      throw new ProblemError(
        'draft_revision_conflict',
        `The draft is at revision ${template.draft_revision}, not ${options.revision}.`,
        { current_revision: template.draft_revision },
      )
    }
    const run = await this.check(template)
    const failed = run.steps.find((s) => s.status === 'failed')
    if (failed) {
      throw new ProblemError(
        (failed.code ?? 'render_failed') as never,
        `Publishing failed at step ${failed.name}: ${failed.message}`,
        {
          publish_run: run,
          ...(failed.line !== undefined
            ? { line: failed.line, column: failed.column, excerpt: failed.excerpt }
            : {}),
          ...(failed.errors ? { errors: failed.errors as FieldProblem[] } : {}),
        },
      )
    }
    const { draft } = template
    const version = await this.#d.db.kysely.transaction().execute(async (trx) => {
      const stored = await this.#d.templateRepository.publish(trx, template, {
        id: newId('templateVersion'),
        template_id: template.id,
        workspace_id: template.workspace_id,
        content: draft.content,
        data_schema: draft.data_schema,
        sample_data: draft.sample_data,
        notes: options.notes ?? null,
        created_at: now.toISOString(),
      })
      // templates are shared by test and live keys: the event is a live one
      await this.#d.eventOutbox.emit(trx, {
        workspaceId: template.workspace_id,
        type: 'template.published',
        test: false,
        data: {
          object: 'template_version',
          template_id: template.id,
          template_name: template.name,
          type: template.type,
          version: stored.number,
          version_id: stored.id,
          notes: stored.notes,
          published_at: stored.created_at,
        },
      })
      return stored
    })
    return { template: await this.#d.templateService.get(auth, id), version, run }
  }

  /** Runs every step on the draft; a step whose input failed is skipped. */
  async check(template: Template): Promise<PublishRun> {
    const { content, data_schema: schema } = template.draft
    const steps: PublishStep[] = []
    const step = async (name: StepName, ready: boolean, body: () => unknown) => {
      if (!ready) {
        steps.push({ name, status: 'skipped' })
        return false
      }
      try {
        await body()
        steps.push({ name, status: 'passed' })
        return true
      } catch (err) {
        steps.push(failedStep(name, err))
        return false
      }
    }
    let parsed: boolean
    if (template.type === 'image_canvas') {
      parsed = await step('scene', true, () => sceneRenderer(this.#d.plugins.registries).validate(content))
    } else {
      const partials = partialsOf(content)
      parsed = await step('syntax', true, () => {
        const engine = templateEngine(this.#d.plugins.registries)
        // the main source needs no label (its line and column speak for themselves); the partials
        // are checked with it, each under its own name
        const main = content[template.type === 'pdf_code' ? 'html' : 'markdown']
        engine.checkSyntax(String(main ?? ''), { partials })
        for (const label of ['header_html', 'footer_html']) {
          const source = content[label]
          if (typeof source === 'string') engine.checkSyntax(source, { label })
        }
      })
    }
    const schemaOk = await step('data_schema', true, () => {
      const problem = schema ? dataSchemaError(schema) : undefined
      if (problem) {
        throw new ProblemError('data_schema_mismatch', `data_schema is not a valid JSON Schema: ${problem}`, {
          errors: [{ path: '/data_schema', code: 'schema', message: problem }],
        })
      }
    })
    const sample = await this.#sampleData(template)
    const sampleOk = await step('sample_data', schemaOk, () =>
      assertDataMatches(schema, sample, '/sample_data'),
    )
    await step('sample_render', parsed && sampleOk, () => this.#sampleRender(template, sample))
    return {
      object: 'publish_run',
      status: steps.some((s) => s.status === 'failed') ? 'failed' : 'passed',
      steps,
    }
  }

  async #sampleRender(template: Template, sample: Record<string, unknown>): Promise<void> {
    const { content } = template.draft
    if (template.type !== 'image_canvas') {
      await renderTemplateHtml(this.#d.plugins.registries, template.type, content, sample)
      return
    }
    // a PNG proves the data binds and the layers draw; its bytes are not kept
    const signal = AbortSignal.timeout(SAMPLE_RENDER_MS)
    const deadline = Date.now() + SAMPLE_RENDER_MS
    await sceneRenderer(this.#d.plugins.registries).render(content, sample, {
      format: 'png',
      fetch: (url, options) => this.#d.outboundGuard.fetch(url, { ...options, deadline, signal }),
      maxPixels: this.#d.config.canvasMaxPixels,
      signal,
      warn: () => {},
    })
  }

  async #sampleData(template: Template): Promise<Record<string, unknown>> {
    if (template.draft.sample_data) return template.draft.sample_data
    return (await this.#d.datasetRepository.default(template.id))?.data ?? {}
  }
}
