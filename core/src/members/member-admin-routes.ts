import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { MEMBER_ROLES } from './member.ts'

const WorkspaceParams = Type.Object({ id: Type.String({ pattern: '^ws_[0-9a-z]{20,40}$' }) })
const MemberParams = Type.Object({
  id: Type.String({ pattern: '^ws_[0-9a-z]{20,40}$' }),
  member_id: Type.String({ pattern: '^mem_[0-9a-z]{20,40}$' }),
})
const AddMember = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Optional(Type.Union(MEMBER_ROLES.map((r) => Type.Literal(r)))),
  },
  { additionalProperties: false },
)

/**
 * The operator's member routes under /admin/v1 (what `docsvc member ...` does): the verification
 * link comes back to the operator to pass on, and is mailed too when SMTP is configured.
 */
export async function memberAdminRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { memberService } = container.cradle
  const config = { access: 'operator' as const }
  const tags = ['admin']
  const base = '/admin/v1/workspaces/:id/members'

  app.get<{ Params: Static<typeof WorkspaceParams> }>(
    base,
    { schema: { hide: true, tags, params: WorkspaceParams }, config },
    async (request) => ({ data: await memberService.list(request.params.id) }),
  )
  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AddMember> }>(
    base,
    { schema: { hide: true, tags, params: WorkspaceParams, body: AddMember }, config },
    async (request, reply) => {
      const { member, verification } = await memberService.add({
        workspaceId: request.params.id,
        email: request.body.email,
        ...(request.body.role ? { role: request.body.role } : {}),
      })
      return reply.code(201).send({ ...member, verification })
    },
  )
  app.delete<{ Params: Static<typeof MemberParams> }>(
    `${base}/:member_id`,
    { schema: { hide: true, tags, params: MemberParams }, config },
    async (request, reply) => {
      await memberService.remove(request.params.id, request.params.member_id)
      return reply.code(204).send()
    },
  )
  app.post<{ Params: Static<typeof MemberParams> }>(
    `${base}/:member_id/verification-link`,
    { schema: { hide: true, tags, params: MemberParams }, config },
    async (request) => memberService.verificationLink(request.params.id, request.params.member_id),
  )
}
