// The only import surface for plugins and providers.

export { mapWithLimit } from '../kernel/map-with-limit.ts'
export type {
  EinvoiceProfile,
  EmailProviderFactory,
  ExtensionPoint,
  InputPlugin,
  OutputPlugin,
  PdfTool,
  Registries,
  StorageProviderFactory,
} from '../kernel/plugins/extension-points.ts'
export type { Registry } from '../kernel/plugins/registry.ts'
export type { ProblemCode } from '../kernel/problem-codes.ts'
export { ProblemError } from '../kernel/problem-error.ts'
export {
  type ProgramResult,
  type RunProgramOptions,
  runProgram,
} from '../kernel/programs/program-launcher.ts'
export {
  exclusiveBuffer,
  WorkerPool,
  type WorkerPoolOptions,
  type WorkerTask,
} from '../kernel/worker-pool/worker-pool.ts'
export {
  type WorkerBudget,
  WorkerCrashed,
  WorkerMemoryBudgetExceeded,
  WorkerPoolClosed,
  WorkerTimeBudgetExceeded,
} from '../kernel/worker-pool/worker-pool-errors.ts'
export { transferring } from '../kernel/worker-pool/worker-pool-protocol.ts'
export {
  definePlugin,
  type HealthReport,
  type LifecycleContext,
  type OutboundGuardApi,
  PLUGIN_API_VERSION,
  type PluginContext,
  type PluginHost,
  type PluginLogger,
  type PluginManifest,
  type ProcessRole,
} from './define-plugin.ts'
export type {
  DocumentBuilder,
  DocumentSource,
  SceneRenderer,
  SceneRenderOptions,
  TemplateEngine,
  TemplateRendering,
  TemplateRunOptions,
} from './document-contracts.ts'
export { type FairClaimPlan, type GroupState, planFairClaims, UNGROUPED } from './fair-claim.ts'
export type { FileStore, FileStoreFactory, LocalFile } from './file-contracts.ts'
export { checkJobOptions } from './job-options.ts'
export { type ClaimedJob, JobRunner, type JobSource } from './job-runner.ts'
export type {
  Job,
  JobGroup,
  JobHandler,
  JobOptions,
  JobPriority,
  QueueBackend,
  QueueBackendContext,
  QueueBackendFactory,
} from './queue-contracts.ts'
export type {
  FileFormat,
  GuardedFetch,
  HttpOptions,
  InputContext,
  OutputContext,
  OutputFormat,
  ProducedFile,
  RenderContextBase,
  RenderDocument,
  RenderedFile,
  RenderInput,
  RenderOutput,
  RenderWarning,
  RenderWarningCode,
  StagedFile,
  WaitOptions,
} from './render-contracts.ts'
export { isStagedFile } from './render-contracts.ts'
