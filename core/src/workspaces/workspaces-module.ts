import { asFunction, Lifetime } from 'awilix'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { WorkspaceRepository } from './workspace-repository.ts'
import { type WorkspacePlanChange, WorkspaceService } from './workspace-service.ts'
import { workspaceSettingsRoutes } from './workspace-settings-routes.ts'
import './workspace-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the workspaces table, for this folder and tests; other features use workspaceService */
    workspaceRepository: WorkspaceRepository
    workspaceService: WorkspaceService
    /** how a plan change is written; the members feature replaces it (decision 0099) */
    workspacePlanChange: WorkspacePlanChange
  }
}

/** Workspaces: the tenants every key, render and template belongs to, each on a plan. */
export const workspacesModule: FeatureModule = {
  id: 'workspaces',
  register({ container }) {
    container.register({
      ...singletons({ workspaceRepository: WorkspaceRepository, workspaceService: WorkspaceService }),
      workspacePlanChange: asFunction(
        ({ db }): WorkspacePlanChange =>
          (_id, _planId, write) =>
            write(db.kysely),
        { lifetime: Lifetime.SINGLETON },
      ),
    })
  },
  rootRoutes: workspaceSettingsRoutes,
}
