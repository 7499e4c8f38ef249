import type { Kysely } from 'kysely'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { BillingService } from '../billing/billing-service.ts'
import type { Database } from '../db/schema.ts'
import { prepareHybridEinvoice } from '../einvoices/hybrid-einvoice.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import type { Registries } from '../kernel/plugins/extension-points.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { MemberService } from '../members/member-service.ts'
import type { Plan } from '../plans/plan.ts'
import type { PlanGate } from '../plans/plan-gate.ts'
import { type RateLimiter, rateLimitHeaders } from '../rate-limits/rate-limiter.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import { drawsWithOutput } from '../sdk/producer-contracts.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import type { InlineWebhookCheck } from './inline-webhook-check.ts'
import { FINISHED_STATUSES, type Render, type RenderFile, type RenderRequest } from './render.ts'
import { assertHostingFits } from './render-hosting.ts'
import { discardLargeBodies, storeLargeBodies } from './render-input-bodies.ts'
import { renderInputTypes } from './render-input-types.ts'
import { RENDER_JOB, renderJobOptions } from './render-jobs.ts'
import { renderNotFound } from './render-not-found.ts'
import type { Admit, InlineRenderWebhook, RenderRepository } from './render-repository.ts'
import { type RenderSecretBox, sealSecrets } from './render-secrets.ts'
import { RenderValidation } from './render-validation.ts'
import { refuseUnbuiltDelivery } from './unbuilt-delivery.ts'

const NOT_QUEUED = {
  code: 'render_lost',
  message: 'The render could not be queued; nothing was billed.',
}

/** a sync request refused for concurrency may try again this soon (SPEC 7.2) */
const CONCURRENCY_RETRY_AFTER_SECONDS = 1

export interface CreateRenderInput {
  request: RenderRequest
  mode: 'sync' | 'async'
  priority: 'normal' | 'low'
  reference: string | null
  metadata: Record<string, unknown> | null
  retentionDays: number | null
  /** where the options object sits in the request, for error pointers */
  optionsPointer: string
  /** where the render's own webhook sits in the request (`/webhook`, or a convenience `/webhook_url`) */
  webhookPointer?: string
  source?: string
  /** the template a render comes from (templates feature) */
  templateId?: string
  /** the render's kind when not a plain render (e.g. einvoice_xml) */
  kind?: string
  /** a live render that is never billed (a PDF metadata read): not stopped by render_limit_reached */
  unbilled?: boolean
  /** the engine the request names (`engine`); null: the one that draws the format */
  engine?: string | null
}

export interface RenderWithFiles {
  render: Render
  files: RenderFile[]
}

export class RenderService {
  readonly #renders: RenderRepository
  readonly #queue: QueueBackend
  readonly #config: Config
  readonly #validation: RenderValidation
  readonly #rateLimiter: RateLimiter
  readonly #producers: PluginSet['registries']['producers']
  readonly #fileStore: FileStore
  readonly #secretBox: RenderSecretBox
  readonly #inlineWebhookCheck: InlineWebhookCheck
  readonly #planGate: PlanGate
  readonly #registries: Registries
  readonly #billing: Pick<BillingService, 'admission'>
  readonly #members: Pick<MemberService, 'requireVerifiedEmail'>

  constructor(deps: {
    renderRepository: RenderRepository
    queue: QueueBackend
    config: Config
    plugins: PluginSet
    rateLimiter: RateLimiter
    fileStore: FileStore
    renderSecretBox: RenderSecretBox
    inlineWebhookCheck: InlineWebhookCheck
    planGate: PlanGate
    billingService: Pick<BillingService, 'admission'>
    memberService: Pick<MemberService, 'requireVerifiedEmail'>
  }) {
    this.#planGate = deps.planGate
    this.#billing = deps.billingService
    this.#members = deps.memberService
    this.#inlineWebhookCheck = deps.inlineWebhookCheck
    this.#secretBox = deps.renderSecretBox
    this.#fileStore = deps.fileStore
    this.#producers = deps.plugins.registries.producers
    this.#rateLimiter = deps.rateLimiter
    this.#renders = deps.renderRepository
    this.#queue = deps.queue
    this.#config = deps.config
    this.#registries = deps.plugins.registries
    this.#validation = new RenderValidation(deps.plugins.registries, () =>
      renderInputTypes(deps.plugins.registries.inputs, deps.plugins.registries.producers),
    )
  }

  /** Validates, stores the render as `queued` and hands it to the queue. */
  async create(auth: AuthContext, plan: Plan, input: CreateRenderInput, now = new Date()): Promise<Render> {
    const { request } = input
    // before the PDF options are checked: an embedded invoice makes the PDF PDF/A-3b
    prepareHybridEinvoice(request, this.#registries, input.optionsPointer)
    const options = request.output.format === 'pdf' ? request.output.pdf : request.output.image
    const output = { format: request.output.format, options: options ?? {}, at: input.optionsPointer }
    const producer = this.#producers.get(request.input.type)
    if (!producer) this.#validation.assertValid(request.input, output)
    else {
      producer.validate?.(request)
      if (!producer.ownsOutput) this.#validation.assertOutput(output)
    }
    const outputDraws = producer ? drawsWithOutput(producer, producer.ownsOutput, request) : true
    this.#validation.assertEngine(input.engine ?? null, outputDraws ? output.format : undefined)
    const retentionDays = this.#retentionDays(auth, plan, input.retentionDays)
    assertHostingFits(request, retentionDays)
    refuseUnbuiltDelivery(request.delivery)
    if (request.webhook) await this.#inlineWebhookCheck(auth, input.webhookPointer ?? '/webhook')
    if (!auth.workspace.regions.includes(this.#config.region)) {
      throw new ProblemError(
        'region_not_enabled',
        `This workspace is not enabled for region ${this.#config.region} (enabled: ${auth.workspace.regions.join(', ') || 'none'}).`,
      )
    }
    if (!auth.test) await this.#members.requireVerifiedEmail(auth.workspace)
    // previews are free and watermarked, and SPEC 4.10 gives them no 402 (decision 0080)
    if (input.kind !== 'preview') await this.#planGate.requireForRender(plan, request)
    if (auth.test) await this.#limitTestRenders(auth.workspace.id, plan)
    // billable live work reserves its unit in the transaction that stores it (decision 0097)
    const admit =
      auth.test || input.unbilled ? undefined : await this.#billing.admission(auth.workspace.id, plan, now)
    const at = now.toISOString()
    const id = newId('render')
    // credentials never sit in the stored request: sealed apart, cleared when the render ends
    const { request: kept, secrets } = sealSecrets(this.#secretBox, request)
    const render: Render = {
      id,
      workspace_id: auth.workspace.id,
      test: auth.test,
      status: 'queued',
      input_type: request.input.type,
      kind: input.kind ?? 'render',
      source: input.source ?? 'api',
      output_format: request.output.format,
      reference: input.reference,
      metadata: input.metadata,
      template_id: input.templateId ?? null,
      batch_id: null,
      key_id: auth.key.id,
      mode: input.mode,
      priority: input.priority,
      request: await storeLargeBodies(this.#fileStore, { id, workspace_id: auth.workspace.id }, kept),
      result: null,
      warnings: [],
      error: null,
      retention_days: retentionDays,
      job_id: null,
      attempts: 0,
      created_at: at,
      started_at: null,
      finished_at: null,
      files_expire_at: null,
      updated_at: at,
      secrets,
    }
    await this.#insert(render, plan, admit)
    // the job is sent after the row is stored; should this process stop in between, the sweeper
    // sends it (RenderSweeper): the job's id follows from the render's, so never twice
    let jobId: string
    try {
      jobId = await this.#queue.send(
        RENDER_JOB,
        { renderId: render.id },
        renderJobOptions(render, plan, this.#config),
      )
    } catch (err) {
      // the client is told it failed: the render must not run later behind its back
      await this.#renders.transition(render.id, ['queued'], 'failed', new Date().toISOString(), NOT_QUEUED)
      await discardLargeBodies(this.#fileStore, render)
      throw err
    }
    await this.#renders.setJob(render.id, jobId)
    return { ...render, job_id: jobId }
  }

  /**
   * Stores the render with its admission (402 render_limit_reached when billing has no unit
   * left); SPEC 7.3: a sync render over the plan's `sync_concurrency` is refused, 429
   * concurrency_limited. A refused render leaves no stored bodies behind.
   */
  async #insert(render: Render, plan: Plan, admit: Admit | undefined): Promise<void> {
    const limit = plan.limits.sync_concurrency
    let stored: boolean
    try {
      if (render.mode !== 'sync') {
        await this.#renders.insert(render, admit)
        return
      }
      stored = await this.#renders.insertWithinSyncLimit(render, limit, admit)
    } catch (err) {
      await discardLargeBodies(this.#fileStore, render)
      throw err
    }
    if (stored) return
    await discardLargeBodies(this.#fileStore, render)
    throw new ProblemError(
      'concurrency_limited',
      `The ${plan.name} plan runs at most ${limit} synchronous renders at once; retry shortly, or render with mode async.`,
      { headers: { 'Retry-After': String(CONCURRENCY_RETRY_AFTER_SECONDS) } },
    )
  }

  /**
   * Files are kept the plan's retention, or less when the request says (0: zero retention); the
   * same request is valid with either key, and test files go after 24 hours at most (SPEC 8).
   */
  #retentionDays(auth: AuthContext, plan: Plan, requested: number | null): number {
    const most = plan.limits.retention_days
    if (requested !== null && requested > most) {
      throw validationProblem([
        {
          path: '/retention_days',
          code: 'maximum',
          message: `the ${plan.name} plan keeps files at most ${most} days`,
        },
      ])
    }
    const days = requested ?? most
    return auth.test ? Math.min(days, 1) : days
  }

  /** SPEC 8: test keys render for free, within the plan's test renders per minute. */
  async #limitTestRenders(workspaceId: string, plan: Plan): Promise<void> {
    const policy = { name: 'test_renders', limit: plan.limits.test_renders_per_minute, windowSeconds: 60 }
    const outcome = await this.#rateLimiter.consume(workspaceId, policy)
    if (!outcome.allowed) {
      throw new ProblemError(
        'rate_limited',
        `More than ${policy.limit} test renders per minute on this plan.`,
        {
          headers: rateLimitHeaders(outcome),
        },
      )
    }
  }

  /**
   * The renders' own webhooks by render id, for the webhook dispatcher: it reaches a render's
   * request through this service, not the renders table. `reader` is the caller's transaction.
   */
  inlineWebhooks(
    renderIds: readonly string[],
    reader?: Kysely<Database>,
  ): Promise<Map<string, InlineRenderWebhook>> {
    return this.#renders.webhooksOf(renderIds, reader)
  }

  /**
   * A render of one workspace and mode with its files, or null: how another feature reads a
   * render's output (a PDF tool's `render_id` source) without the renders tables.
   */
  async withFiles(workspaceId: string, test: boolean, id: string): Promise<RenderWithFiles | null> {
    const render = await this.#renders.get(workspaceId, test, id)
    return render ? { render, files: await this.#renders.files(render.id) } : null
  }

  async get(auth: AuthContext, id: string): Promise<Render> {
    const render = await this.#renders.get(auth.workspace.id, auth.test, id)
    if (!render) throw renderNotFound(id, auth.test)
    return render
  }

  /** SPEC 3: queued -> canceled at once; processing stays and finishes; finished -> 409. */
  async cancel(auth: AuthContext, id: string, now = new Date()): Promise<Render> {
    const render = await this.get(auth, id)
    if (FINISHED_STATUSES.includes(render.status)) {
      throw new ProblemError('conflict', `Render ${id} already finished (${render.status}).`)
    }
    if (render.status === 'queued') {
      const canceled = await this.#renders.transition(id, ['queued'], 'canceled', now.toISOString(), {
        code: 'render_canceled',
        message: 'Canceled before it started.',
      })
      if (canceled && render.job_id) await this.#queue.cancel(render.job_id).catch(() => false)
      if (canceled) await discardLargeBodies(this.#fileStore, render)
    }
    return this.get(auth, id)
  }
}
