// The only import surface for plugins and providers.

export { mapWithLimit } from '../kernel/map-with-limit.ts'
export { requiredCapability } from '../kernel/plugins/required-capability.ts'
export type { ProblemCode } from '../kernel/problem-codes.ts'
export { causeText, ProblemError, problemFromCause } from '../kernel/problem-error.ts'
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
  type HealthContext,
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
export {
  type EinvoiceModel,
  type EinvoiceSyntax,
  type EinvoiceWriteOptions,
  type EinvoiceXmlValidator,
  einvoiceFilename,
} from './einvoice-contracts.ts'
export {
  checkEmailMessage,
  type DeliveryEvent,
  type DeliveryEventType,
  type DeliveryWebhookRequest,
  EMAIL_PROBE_STEPS,
  type EmailAddress,
  type EmailAttachment,
  type EmailCapabilities,
  EmailFailure,
  type EmailFailureReason,
  type EmailLimits,
  type EmailMessage,
  type EmailProbeOptions,
  type EmailProbeReport,
  type EmailProvider,
  type EmailProviderContext,
  type EmailSendOptions,
  type SentEmail,
} from './email-contracts.ts'
export type {
  ConformanceValidator,
  EinvoiceProfile,
  EmailProviderFactory,
  ExtensionPoint,
  InputPlugin,
  OutputPlugin,
  PdfPostProcessor,
  PdfTool,
  Registries,
  Registry,
  StorageProviderFactory,
} from './extension-points.ts'
export { type FairClaimPlan, type GroupState, planFairClaims, UNGROUPED } from './fair-claim.ts'
export type { FileStore, FileStoreFactory, LocalFile } from './file-contracts.ts'
export { checkJobOptions } from './job-options.ts'
export { type ClaimedJob, JobRunner, type JobSource } from './job-runner.ts'
export {
  GLYPHLESS_CHARACTER,
  MAX_NAMED_GLYPHS,
  type MissingGlyphs,
  missingGlyphsMessage,
  nameGlyphs,
  needsGlyph,
} from './missing-glyphs.ts'
export { PdfMetadataSchema } from './pdf-metadata-schema.ts'
export {
  CONFORMANCE_PROFILES,
  type ConformanceProfile,
  type ConformanceReport,
  type ConformanceValidateOptions,
  conformanceReport,
  type Finding,
  type FindingSeverity,
  orderPostProcessors,
  PDF_POST_PROCESS_PHASES,
  type PdfPostProcessContext,
  type PdfPostProcessPhase,
  type PdfPostProcessResult,
} from './pdf-pipeline-contracts.ts'
export { makesTaggedPdf } from './pdf-tagging.ts'
export type { PlanFeature, PlanSkipWarningCode } from './plan-feature-contracts.ts'
export type { ProducerContext, ProducerWork, Production, RenderProducer } from './producer-contracts.ts'
export {
  type ByteSource,
  CredentialField,
  type FailureKind,
  isProviderFailure,
  type ProbeOptions,
  type ProbeReport,
  type ProbeStep,
  ProviderFailure,
  type ProviderFailureOptions,
  readableCredentialFields,
  runProbeSteps,
  sourceBytes,
  sourceSize,
} from './provider-contracts.ts'
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
export type { DeliveryType, Render, RenderError, RenderRequest, RenderStatus } from './render-records.ts'
export {
  checkStoragePut,
  STORAGE_PROBE_STEPS,
  StorageFailure,
  type StorageFailureReason,
  type StorageLimits,
  type StorageProvider,
  type StorageProviderContext,
  type StoragePutOptions,
  type StoredObject,
} from './storage-contracts.ts'
export {
  MAX_WAIT_DELAY_MS,
  MAX_WAIT_EXPRESSION_LENGTH,
  MAX_WAIT_TIMEOUT_MS,
  WaitOptionsSchema,
} from './wait-options-schema.ts'
