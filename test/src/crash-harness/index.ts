// The one crash-and-restart harness (issue 13): later suites (plans, batches, packaging) run
// `runCrashScenario` with their own workload, or compose the parts themselves.
export { CrashCluster, type CrashClusterOptions, type LiveWorkspace } from './crash-cluster.ts'
export {
  apiCaller,
  type CrashReport,
  type CrashScenarioOptions,
  canvasWorkload,
  formatReport,
  runCrashScenario,
  type ScenarioContext,
  type Workload,
} from './crash-scenario.ts'
export {
  type CrashFigures,
  openInstallationDb,
  readFigures,
  settled,
  waitUntilSettled,
} from './invariants.ts'
export { type KillRecord, type PlannedKill, planKills, runKills } from './killer.ts'
export { LoadDriver, type LoadFigures, type LoadOptions } from './load-driver.ts'
export { ServiceProcess, type ServiceSpec } from './service-process.ts'
