import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { ApiKey } from '../api-keys/api-key.ts'
import type { CreateKeyInput } from '../api-keys/api-key-service.ts'
import { createKernel, type Kernel, type KernelOptions } from '../composition/create-kernel.ts'
import { loadConfig } from '../kernel/config.ts'
import type { PlanLimits } from '../plans/plan.ts'
import {
  FAKE_TEST_MARK,
  fakeOutputsPlugin,
  fakeRenderPlugin,
} from '../renders/fake-render-plugins.fixture.ts'
import type { Workspace } from '../workspaces/workspace.ts'
import { createPgSchema, TEST_DATABASE_URL, type TestDialect } from './test-databases.ts'

export interface TestKernelOptions {
  dialect?: TestDialect
  /** DOCSVC_* variables on top of the test defaults */
  env?: Record<string, string>
  builtins?: KernelOptions['builtins']
  /** the core features; default every one (core/src/features.ts) */
  features?: KernelOptions['features']
  pluginSearchPaths?: string[]
  extraV1Routes?: KernelOptions['extraV1Routes']
  /** reuse an existing PostgreSQL schema (a second process on the same database) */
  pgSchema?: string
  /** the TEST stamp; default the real one, or FAKE_TEST_MARK with the fake render outputs */
  testMark?: KernelOptions['testMark']
  /** process roles; default API only, so suites that render nothing start no worker or browser */
  roles?: KernelOptions['roles']
  /** a fake DNS for the outbound guard */
  resolver?: KernelOptions['resolver']
  /** where the kernel logs; default a silent one (tests that read the log pass their own) */
  logger?: KernelOptions['logger']
}

export interface TestWorkspace {
  workspace: Workspace
  /**
   * the owner's address, one per workspace (`owner+<workspace id>@example.com`), so a suite's
   * Free workspaces do not meet the free workspace limit; null with `verifiedOwner: false`
   */
  ownerEmail: string | null
  /** full key strings */
  testKey: string
  liveKey: string
}

export interface TestKernel {
  kernel: Kernel
  dialect: TestDialect
  dataDir: string
  /** the PostgreSQL schema, for a second kernel on the same database */
  pgSchema: string | undefined
  inject(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse>
  /** a workspace with a test and a live key and, unless `verifiedOwner: false`, a verified owner */
  createWorkspace(options?: { plan?: string; name?: string; verifiedOwner?: boolean }): Promise<TestWorkspace>
  createKey(input: CreateKeyInput): Promise<{ key: string; record: ApiKey }>
  /** changes some limits of a plan (e.g. requests per second, so a suite's bursts pass) */
  setPlanLimits(planId: string, limits: Partial<PlanLimits>): Promise<void>
  close(): Promise<void>
}

/**
 * Boots the kernel in-process on a throwaway data dir (SQLite) or a throwaway schema
 * (PostgreSQL at DOCSVC_TEST_DATABASE_URL); requests go through Fastify's inject().
 */
export async function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const dialect = options.dialect ?? 'sqlite'
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-test-'))
  const pgSchema =
    dialect !== 'postgres'
      ? undefined
      : options.pgSchema
        ? { schema: options.pgSchema, drop: async () => {} }
        : await createPgSchema()
  const env: Record<string, string> = {
    DOCSVC_DATA_DIR: dataDir,
    DOCSVC_LOG_LEVEL: 'silent',
    DOCSVC_FIRST_RUN: 'false',
    DOCSVC_KEY_USAGE_FLUSH_MS: '50',
    ...(dialect === 'postgres'
      ? {
          DOCSVC_DATABASE_URL: TEST_DATABASE_URL,
          DOCSVC_SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789',
        }
      : {}),
    ...options.env,
  }
  const config = loadConfig(env)
  let kernel: Kernel
  try {
    kernel = await createKernel({
      config,
      env,
      roles: options.roles ?? ['api'],
      ...(pgSchema ? { pgSchema: pgSchema.schema } : {}),
      ...(options.builtins ? { builtins: options.builtins } : {}),
      ...(options.features ? { features: options.features } : {}),
      ...(options.pluginSearchPaths ? { pluginSearchPaths: options.pluginSearchPaths } : {}),
      ...(options.extraV1Routes ? { extraV1Routes: options.extraV1Routes } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...testMarkOf(options),
    })
  } catch (err) {
    // a half-built schema must not be left behind for later runs
    await pgSchema?.drop()
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  }
  const { workspaceService, apiKeyService, memberService } = kernel.container.cradle
  return {
    kernel,
    dialect,
    dataDir,
    pgSchema: pgSchema?.schema,
    inject({ key, headers, ...rest }) {
      return kernel.app.inject({
        ...rest,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      } as InjectOptions)
    },
    async createWorkspace({ plan = 'scale', name = 'Test workspace', verifiedOwner = true } = {}) {
      const workspace = await workspaceService.create({ name, plan })
      // live keys render only for a workspace with a verified owner (SPEC 5); each workspace
      // its own, as a person may own only two Free workspaces (SPEC 7.3, decision 0099)
      const ownerEmail = verifiedOwner ? `owner+${workspace.id}@example.com` : null
      if (ownerEmail !== null) {
        await memberService.add({
          workspaceId: workspace.id,
          email: ownerEmail,
          role: 'owner',
          verified: true,
        })
      }
      const test = await apiKeyService.create({ workspaceId: workspace.id, mode: 'test' })
      const live = await apiKeyService.create({ workspaceId: workspace.id, mode: 'live' })
      return { workspace, ownerEmail, testKey: test.key, liveKey: live.key }
    },
    createKey: (input) => apiKeyService.create(input),
    async setPlanLimits(planId, limits) {
      const { planRepository } = kernel.container.cradle
      const plan = await planRepository.get(planId)
      if (!plan) throw new Error(`no plan ${planId}`)
      await planRepository.update({ ...plan, limits: { ...plan.limits, ...limits } })
    },
    async close() {
      await kernel.close()
      await pgSchema?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The fake outputs print text, not PDFs or images: their kernel marks them as text. */
function testMarkOf(options: TestKernelOptions): Pick<KernelOptions, 'testMark'> {
  if (options.testMark) return { testMark: options.testMark }
  const fake = options.builtins?.some(
    (p) => p === (fakeRenderPlugin as unknown) || p === (fakeOutputsPlugin as unknown),
  )
  return fake ? { testMark: FAKE_TEST_MARK } : {}
}
