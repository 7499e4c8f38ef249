import type { Kysely } from 'kysely'
import { nowIso } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import { allowlistOrNull } from '../net/cidr.ts'
import type { Plan } from '../plans/plan.ts'
import type { PlanService } from '../plans/plan-service.ts'
import {
  DEFAULT_WORKSPACE_SETTINGS,
  type Workspace,
  type WorkspaceSettings,
  type WorkspaceStatus,
} from './workspace.ts'
import type { WorkspaceRepository } from './workspace-repository.ts'

export interface CreateWorkspaceInput {
  name: string
  plan?: string
  ipAllowlist?: string[] | null
  /** first run only: live rendering without a verified owner (docs/decisions/0090) */
  emailCheckWaived?: boolean
}

/**
 * Runs a plan change's write (`write`, given the transaction to use). The workspaces feature's
 * own runs it as is; the members feature, which depends on workspaces, registers one that
 * applies the free workspace limit to the workspace's owners (docs/decisions/0099).
 */
export type WorkspacePlanChange = (
  workspaceId: string,
  planId: string,
  write: (db: Kysely<Database>) => Promise<void>,
) => Promise<void>

export class WorkspaceService {
  readonly #workspaces: WorkspaceRepository
  readonly #plans: Pick<PlanService, 'get' | 'list'>
  readonly #config: Config
  readonly #planChange: WorkspacePlanChange

  constructor(deps: {
    workspaceRepository: WorkspaceRepository
    planService: Pick<PlanService, 'get' | 'list'>
    config: Config
    workspacePlanChange: WorkspacePlanChange
  }) {
    this.#workspaces = deps.workspaceRepository
    this.#plans = deps.planService
    this.#config = deps.config
    this.#planChange = deps.workspacePlanChange
  }

  async create(input: CreateWorkspaceInput): Promise<Workspace> {
    const ws = await this.prepare(input)
    await this.store(ws)
    return ws
  }

  /** A new workspace, checked (name, plan, allowlist) and not stored yet: `store` stores it. */
  async prepare(input: CreateWorkspaceInput): Promise<Workspace> {
    const name = input.name.trim()
    if (!name) throw new ProblemError('validation_error', 'name must not be empty')
    const planId = input.plan ?? 'free'
    await this.#requirePlan(planId)
    const ipAllowlist = allowlistOrNull(input.ipAllowlist)
    return {
      id: newId('workspace'),
      name,
      plan_id: planId,
      status: 'active',
      ip_allowlist: ipAllowlist,
      email_check_waived: input.emailCheckWaived === true,
      settings: { ...DEFAULT_WORKSPACE_SETTINGS },
      regions: [this.#config.region],
      created_at: nowIso(),
    }
  }

  /** `db`: the transaction the insert belongs to (a workspace made with its owner, decision 0099) */
  store(ws: Workspace, db?: Kysely<Database>): Promise<void> {
    return this.#workspaces.insert(ws, db)
  }

  /** `db`: a transaction to read in (what that transaction sees, locks included) */
  async get(id: string, db?: Kysely<Database>): Promise<Workspace> {
    const ws = await this.#workspaces.get(id, db)
    if (!ws) throw new ProblemError('not_found', `workspace ${id} does not exist`)
    return ws
  }

  list(): Promise<Workspace[]> {
    return this.#workspaces.list()
  }

  /**
   * Those of the workspaces `ids` that are on `planId`, read in `db` when given (the free
   * workspace limit counts in its own transaction, decision 0099).
   */
  onPlan(ids: string[], planId: string, db?: Kysely<Database>): Promise<string[]> {
    return this.#workspaces.onPlan(ids, planId, db)
  }

  count(): Promise<number> {
    return this.#workspaces.count()
  }

  /**
   * The plan a workspace is on, for work done outside a request (a render's job, the sweeper);
   * undefined when the workspace or its plan is gone.
   */
  async planOf(workspaceId: string): Promise<Plan | undefined> {
    const ws = await this.#workspaces.get(workspaceId)
    return ws ? this.#plans.get(ws.plan_id) : undefined
  }

  async setStatus(id: string, status: WorkspaceStatus): Promise<Workspace> {
    await this.get(id)
    await this.#workspaces.update(id, { status })
    return this.get(id)
  }

  async setPlan(id: string, planId: string): Promise<Workspace> {
    await this.get(id)
    await this.#requirePlan(planId)
    await this.#planChange(id, planId, (db) => this.#workspaces.update(id, { plan_id: planId }, db))
    return this.get(id)
  }

  async setIpAllowlist(id: string, cidrs: string[] | null): Promise<Workspace> {
    await this.get(id)
    await this.#workspaces.update(id, { ip_allowlist: allowlistOrNull(cidrs) })
    return this.get(id)
  }

  /**
   * An operator's change of the email-check exemption (docs/decisions/0095): it can only be
   * ended. Exemptions are given at creation to workspaces older than members and to the
   * first-run workspace (decision 0090); any other workspace renders live through a verified
   * owner, so `true` is refused with the way to get there.
   */
  async setEmailCheckWaived(id: string, waived: boolean): Promise<Workspace> {
    await this.get(id)
    if (waived) {
      throw validationProblem([
        {
          path: '/email_check_waived',
          code: 'const',
          message:
            'email_check_waived can only be set to false (ending an exemption); no workspace is exempted later: ' +
            'to let it render live, add its owner (docsvc member add) and have them open the verification link',
        },
      ])
    }
    await this.#workspaces.update(id, { email_check_waived: false })
    return this.get(id)
  }

  /** Changes the named settings, keeps the others. */
  async updateSettings(id: string, patch: Partial<WorkspaceSettings>): Promise<WorkspaceSettings> {
    const ws = await this.get(id)
    const settings = { ...ws.settings, ...patch }
    await this.#workspaces.update(id, { settings })
    return settings
  }

  async #requirePlan(planId: string): Promise<void> {
    if (!(await this.#plans.get(planId))) {
      const known = (await this.#plans.list()).map((p) => p.id).join(', ')
      throw new ProblemError('validation_error', `unknown plan ${planId}; plans: ${known}`)
    }
  }
}
