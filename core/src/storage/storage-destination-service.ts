import type { Logger } from 'pino'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import { newId } from '../kernel/ids.ts'
import { pluginLogger } from '../kernel/logger.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { type FieldProblem, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { PlanGate } from '../plans/plan-gate.ts'
import type { PlanService } from '../plans/plan-service.ts'
import type { ProbeReport } from '../sdk/provider-contracts.ts'
import { STORAGE_PROBE_STEPS, type StorageProviderFactory } from '../sdk/storage-contracts.ts'
import type { StorageCredentialBox } from './storage-credential-box.ts'
import type { StorageDestination, StorageTestResult } from './storage-destination.ts'
import type { DestinationChanges, StorageDestinationRepository } from './storage-destination-repository.ts'
import { DEFAULT_PATH_TEMPLATE, pathTemplateProblems } from './storage-path-template.ts'
import { checkProviderSettings, providerProblem } from './storage-provider-settings.ts'

/** Destinations one workspace may have (decision 0118): a handful in practice, a bound on fan-out. */
export const MAX_DESTINATIONS_PER_WORKSPACE = 25
/** The whole destination test: write, read back and delete one small object. */
export const PROBE_TIMEOUT_MS = 30_000
export const STORAGE_PLAN_FEATURE = 'storage_destinations'

export interface DestinationWrite {
  name?: string
  provider?: string
  config?: object
  credentials?: object
  is_default?: boolean
  keep_hosted_copy?: boolean
  path_template?: string
}

type NewDestination = DestinationWrite & {
  name: string
  provider: string
  config: object
  credentials: object
}

/** Storage destinations of SPEC 4.7: CRUD and the destination test. */
export class StorageDestinationService {
  readonly #destinations: StorageDestinationRepository
  readonly #box: StorageCredentialBox
  readonly #providers: PluginSet['registries']['storageProviders']
  readonly #plans: PlanService
  readonly #gate: PlanGate
  readonly #log: Logger
  /** the clock; tests replace it */
  now: () => Date = () => new Date()

  constructor(deps: {
    storageDestinationRepository: StorageDestinationRepository
    storageCredentialBox: StorageCredentialBox
    plugins: Pick<PluginSet, 'registries'>
    planService: PlanService
    planGate: PlanGate
    log: Logger
  }) {
    this.#destinations = deps.storageDestinationRepository
    this.#box = deps.storageCredentialBox
    this.#providers = deps.plugins.registries.storageProviders
    this.#plans = deps.planService
    this.#gate = deps.planGate
    this.#log = deps.log
  }

  /** Reading and deleting work below the plan, so a downgraded workspace can see and clean up. */
  list(auth: AuthContext): Promise<StorageDestination[]> {
    return this.#destinations.list(auth.workspace.id)
  }

  async get(auth: AuthContext, id: string): Promise<StorageDestination> {
    const destination = await this.#destinations.get(auth.workspace.id, id)
    if (!destination) throw new ProblemError('not_found', `No storage destination ${id}.`)
    return destination
  }

  async create(auth: AuthContext, write: NewDestination): Promise<StorageDestination> {
    await this.#requirePlan(auth)
    const unknown = providerProblem(this.#providers, write.provider)
    if (unknown) throw validationProblem([unknown])
    const factory = this.#providers.get(write.provider)!
    const pathTemplate = write.path_template ?? DEFAULT_PATH_TEMPLATE
    const config = checkProviderSettings(factory.configSchema, write.config, '/config', factory.id)
    const credentials = checkProviderSettings(
      factory.credentialsSchema,
      write.credentials,
      '/credentials',
      factory.id,
    )
    throwProblems([...config.problems, ...credentials.problems, ...pathTemplateProblems(pathTemplate)])
    const now = this.now().toISOString()
    const destination: StorageDestination = {
      id: newId('storageDestination'),
      workspace_id: auth.workspace.id,
      name: write.name,
      provider: factory.id,
      config: config.value,
      credentials: this.#box.sealCredentials(credentials.value),
      is_default: write.is_default ?? false,
      keep_hosted_copy: write.keep_hosted_copy ?? true,
      path_template: pathTemplate,
      last_test: null,
      created_at: now,
      updated_at: now,
    }
    if (!(await this.#destinations.insert(destination, MAX_DESTINATIONS_PER_WORKSPACE))) {
      throw validationProblem(
        [
          {
            path: '',
            code: 'limit_reached',
            message: `a workspace has at most ${MAX_DESTINATIONS_PER_WORKSPACE} storage destinations; delete one first`,
          },
        ],
        `This workspace already has ${MAX_DESTINATIONS_PER_WORKSPACE} storage destinations.`,
      )
    }
    return destination
  }

  async update(auth: AuthContext, id: string, write: DestinationWrite): Promise<StorageDestination> {
    await this.#requirePlan(auth)
    const destination = await this.get(auth, id)
    // immutable (SPEC 2.8); the same value, as a client writing back what it read sends, changes nothing
    if (write.provider !== undefined && write.provider !== destination.provider) {
      throw validationProblem([
        {
          path: '/provider',
          code: 'immutable',
          message: `cannot change from ${destination.provider}; create a new destination for another provider`,
        },
      ])
    }
    const factory = this.#factoryOf(destination)
    const changes: DestinationChanges = {}
    const problems: FieldProblem[] = []
    if (write.config !== undefined) {
      const checked = checkProviderSettings(factory.configSchema, write.config, '/config', factory.id)
      problems.push(...checked.problems)
      changes.config = checked.value
    }
    if (write.credentials !== undefined) {
      const checked = checkProviderSettings(
        factory.credentialsSchema,
        write.credentials,
        '/credentials',
        factory.id,
      )
      problems.push(...checked.problems)
      changes.credentials = this.#box.sealCredentials(checked.value)
    }
    if (write.path_template !== undefined) {
      problems.push(...pathTemplateProblems(write.path_template))
      changes.path_template = write.path_template
    }
    throwProblems(problems)
    if (write.name !== undefined) changes.name = write.name
    if (write.is_default !== undefined) changes.is_default = write.is_default
    if (write.keep_hosted_copy !== undefined) changes.keep_hosted_copy = write.keep_hosted_copy
    // an old result says nothing about new settings
    if (changes.config || changes.credentials) changes.last_test = null
    await this.#destinations.update(destination, changes, this.now().toISOString())
    return this.get(auth, id)
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.#destinations.delete(await this.get(auth, id))
  }

  /** Writes, reads back and deletes a small object (SPEC 4.7); the result becomes `last_test`. */
  async test(auth: AuthContext, id: string): Promise<StorageTestResult> {
    await this.#requirePlan(auth)
    const destination = await this.get(auth, id)
    const report = await this.#probe(destination)
    const result: StorageTestResult = {
      ok: report.ok,
      steps: report.steps.map((s) => ({
        name: s.name,
        ok: s.ok,
        ...(s.code !== undefined ? { code: s.code } : {}),
        ...(s.detail !== undefined ? { message: s.detail } : {}),
        ...(s.skipped ? { skipped: true } : {}),
      })),
      tested_at: this.now().toISOString(),
    }
    await this.#destinations.update(destination, { last_test: result }, result.tested_at)
    return result
  }

  async #probe(destination: StorageDestination): Promise<ProbeReport> {
    const factory = this.#factoryOf(destination)
    const log = pluginLogger(this.#log.child({ storage_destination: destination.id }))
    let provider: ReturnType<StorageProviderFactory['create']>
    try {
      provider = factory.create(
        { config: destination.config, credentials: this.#box.openCredentials(destination.credentials) },
        { log },
      )
    } catch (err) {
      // settings the schema let through but the provider cannot use: the first step says so
      log.warn('storage provider refused the destination settings', { error: String(err) })
      return {
        ok: false,
        steps: STORAGE_PROBE_STEPS.map((name, i) =>
          i === 0
            ? {
                name,
                ok: false,
                code: 'invalid_settings',
                detail: 'the provider cannot use these settings; check config and credentials',
              }
            : { name, ok: false, skipped: true },
        ),
      }
    }
    try {
      return await provider.probe({ signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    } finally {
      await provider.close?.().catch(() => {})
    }
  }

  #factoryOf(destination: StorageDestination): StorageProviderFactory {
    const factory = this.#providers.get(destination.provider)
    // the plugin was uninstalled after the destination was made
    if (!factory)
      throw new ProblemError(
        'conflict',
        `Storage provider ${destination.provider} is no longer installed; ask the operator, or delete the destination.`,
      )
    return factory
  }

  async #requirePlan(auth: AuthContext): Promise<void> {
    const plan = await this.#plans.get(auth.workspace.plan_id)
    if (plan) await this.#gate.require(plan, STORAGE_PLAN_FEATURE)
  }
}

function throwProblems(problems: FieldProblem[]): void {
  if (problems.length > 0) throw validationProblem(problems)
}
