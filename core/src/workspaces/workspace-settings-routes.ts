import type { AwilixContainer } from 'awilix'
import type { FastifyInstance } from 'fastify'
import { type Static, Type } from 'typebox'
import type { Cradle } from '../kernel/container.ts'
import { WORKSPACE_SETTING_NAMES } from './workspace.ts'

const WorkspaceParams = Type.Object({ id: Type.String({ pattern: '^ws_[0-9a-z]{20,40}$' }) })
const SettingsPatch = Type.Object(
  Object.fromEntries(WORKSPACE_SETTING_NAMES.map((name) => [name, Type.Optional(Type.Boolean())])),
  { additionalProperties: false, minProperties: 1 },
)

/** The operator reads and changes a workspace's settings (`docsvc workspace settings`). */
export async function workspaceSettingsRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { workspaceService } = container.cradle
  const options = { hide: true, tags: ['admin'], params: WorkspaceParams }
  const config = { access: 'operator' as const }
  const path = '/admin/v1/workspaces/:id/settings'

  app.get<{ Params: Static<typeof WorkspaceParams> }>(
    path,
    { schema: options, config },
    async (request) => (await workspaceService.get(request.params.id)).settings,
  )
  app.patch<{ Params: Static<typeof WorkspaceParams>; Body: Record<string, boolean> }>(
    path,
    { schema: { ...options, body: SettingsPatch }, config },
    async (request) => workspaceService.updateSettings(request.params.id, request.body),
  )
}
