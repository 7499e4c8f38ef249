import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import { GRACE_HOURS } from '../api-keys/api-key-service.ts'
import { SCOPES } from '../api-keys/scopes.ts'
import { changeWorkspaceBilling, showWorkspaceBilling } from '../billing/workspace-billing.ts'
import type { Cradle } from '../kernel/container.ts'
import { createWorkspaceWithOwner } from '../members/workspace-with-owner.ts'

const WorkspaceId = Type.Object({ id: Type.String({ pattern: '^ws_[0-9a-z]{20,40}$' }) })
const KeyId = Type.Object({ id: Type.String({ pattern: '^key_[0-9a-z]{24}$' }) })
const Cidrs = Type.Array(Type.String(), { maxItems: 100 })

const CreateWorkspace = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    plan: Type.Optional(Type.String()),
    ip_allowlist: Type.Optional(Cidrs),
    // checked by the members feature, which words the refusal (docs/decisions/0095)
    owner_email: Type.Optional(Type.String({ maxLength: 1_000 })),
  },
  { additionalProperties: false },
)
const PatchWorkspace = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('deletion_scheduled')]),
    ),
    plan: Type.Optional(Type.String()),
    ip_allowlist: Type.Optional(Type.Union([Cidrs, Type.Null()])),
    // false ends an exemption from the email check; true is refused by the workspace service
    email_check_waived: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
// ranges are the billing service's to check, so the CLI and this API refuse alike
const PatchBilling = Type.Object(
  {
    plan: Type.Optional(Type.String()),
    cycle_start_day: Type.Optional(Type.Integer()),
    top_up_limit: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  },
  { additionalProperties: false },
)
const CreateKey = Type.Object(
  {
    workspace_id: Type.String(),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    scopes: Type.Optional(Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))))),
    ip_allowlist: Type.Optional(Cidrs),
    template_allowlist: Type.Optional(Type.Array(Type.String({ pattern: '^tpl_' }))),
    expires_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
)
const PlanId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
// values are checked by PlanService.change against the known features and limits, every bad
// key reported at once, as `docsvc plan set` does
const PatchPlan = Type.Object(
  {
    name: Type.Optional(Type.String()),
    features: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    limits: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
)
const RollKey = Type.Object(
  { grace_hours: Type.Union(GRACE_HOURS.map((h) => Type.Literal(h))) },
  { additionalProperties: false },
)

/**
 * /admin/v1: what the CLI does, over HTTP for operators' own tooling, guarded by the operator
 * token. Disabled (404) while no token is configured.
 */
export async function adminRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { workspaceService, apiKeyService, planService } = container.cradle
  // every route here takes the operator token (checked by the access guard), never a workspace key
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'operator' }
  })
  // operator API: not part of the public /v1 OpenAPI document
  const tags = ['admin']

  app.get('/workspaces', { schema: { hide: true, tags } }, async () => ({
    data: await workspaceService.list(),
  }))
  app.post<{ Body: Static<typeof CreateWorkspace> }>(
    '/workspaces',
    { schema: { hide: true, tags, body: CreateWorkspace } },
    async (request, reply) => {
      const { name, plan, ip_allowlist, owner_email } = request.body
      const ws = await createWorkspaceWithOwner(container.cradle, {
        name,
        ...(plan ? { plan } : {}),
        ipAllowlist: ip_allowlist ?? null,
        ownerEmail: owner_email,
      })
      return reply.code(201).send(ws)
    },
  )
  app.get<{ Params: Static<typeof WorkspaceId> }>(
    '/workspaces/:id',
    { schema: { hide: true, tags, params: WorkspaceId } },
    async (request) => workspaceService.get(request.params.id),
  )
  app.patch<{ Params: Static<typeof WorkspaceId>; Body: Static<typeof PatchWorkspace> }>(
    '/workspaces/:id',
    { schema: { hide: true, tags, params: WorkspaceId, body: PatchWorkspace } },
    async (request) => {
      const { id } = request.params
      const { status, plan, ip_allowlist, email_check_waived } = request.body
      await workspaceService.get(id)
      // `true` is refused before anything is stored; ending an exemption cannot fail, so it
      // comes after the changes that can
      if (email_check_waived === true) await workspaceService.setEmailCheckWaived(id, true)
      if (plan !== undefined) await workspaceService.setPlan(id, plan)
      if (status !== undefined) await workspaceService.setStatus(id, status)
      if (ip_allowlist !== undefined) await workspaceService.setIpAllowlist(id, ip_allowlist)
      if (email_check_waived === false) await workspaceService.setEmailCheckWaived(id, false)
      return workspaceService.get(id)
    },
  )
  app.get<{ Params: Static<typeof WorkspaceId> }>(
    '/workspaces/:id/billing',
    { schema: { hide: true, tags, params: WorkspaceId } },
    async (request) => showWorkspaceBilling(container.cradle, request.params.id),
  )
  app.patch<{ Params: Static<typeof WorkspaceId>; Body: Static<typeof PatchBilling> }>(
    '/workspaces/:id/billing',
    { schema: { hide: true, tags, params: WorkspaceId, body: PatchBilling } },
    async (request) => changeWorkspaceBilling(container.cradle, request.params.id, request.body),
  )
  app.get<{ Params: Static<typeof WorkspaceId> }>(
    '/workspaces/:id/keys',
    { schema: { hide: true, tags, params: WorkspaceId } },
    async (request) => {
      await workspaceService.get(request.params.id)
      return { data: await apiKeyService.list(request.params.id) }
    },
  )
  app.post<{ Body: Static<typeof CreateKey> }>(
    '/keys',
    { schema: { hide: true, tags, body: CreateKey } },
    async (request, reply) => {
      const b = request.body
      const created = await apiKeyService.create({
        workspaceId: b.workspace_id,
        mode: b.mode,
        ...(b.name ? { name: b.name } : {}),
        ...(b.scopes ? { scopes: b.scopes } : {}),
        ipAllowlist: b.ip_allowlist ?? null,
        templateAllowlist: b.template_allowlist ?? null,
        expiresAt: b.expires_at ?? null,
      })
      const { secret_hash: _hash, ...record } = created.record
      return reply.code(201).send({ key: created.key, ...record })
    },
  )
  app.post<{ Params: Static<typeof KeyId>; Body: Static<typeof RollKey> }>(
    '/keys/:id/roll',
    { schema: { hide: true, tags, params: KeyId, body: RollKey } },
    async (request) => {
      const created = await apiKeyService.roll(request.params.id, request.body.grace_hours)
      const { secret_hash: _hash, ...record } = created.record
      return { key: created.key, rolled_from: request.params.id, ...record }
    },
  )
  app.post<{ Params: Static<typeof KeyId> }>(
    '/keys/:id/revoke',
    { schema: { hide: true, tags, params: KeyId } },
    async (request) => {
      const { secret_hash: _hash, ...record } = await apiKeyService.revoke(request.params.id)
      return record
    },
  )
  app.get('/plans', { schema: { hide: true, tags } }, async () => ({ data: await planService.list() }))
  app.patch<{ Params: Static<typeof PlanId>; Body: Static<typeof PatchPlan> }>(
    '/plans/:id',
    { schema: { hide: true, tags, params: PlanId, body: PatchPlan } },
    (request) => planService.change(request.params.id, request.body),
  )
}
