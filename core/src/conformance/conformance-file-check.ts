import { readFile } from 'node:fs/promises'
import { type Config, loadConfig } from '../kernel/config.ts'
import { registeredValues } from '../kernel/plugins/extension-points.ts'
import { loadPluginsOffline } from '../kernel/plugins/offline-host.ts'
import type { ConformanceProfile, ConformanceValidator } from '../sdk/pdf-pipeline-contracts.ts'
import { type ConformanceReportJson, conformanceReportJson } from './conformance-report-json.ts'
import { validateWithin, validatorsFor } from './run-validator.ts'

// `docsvc conformance check`: any PDF on disk checked by the validators this installation
// registers (the built-in plugins that provide validators, the operator's plugins, veraPDF when
// configured), each report in the shape of `result.conformance` (decision 0111).

export interface FileCheck {
  file: string
  /** pass and fail carry the report; unreadable and unavailable say why */
  status: 'pass' | 'fail' | 'unreadable' | 'unavailable'
  report?: ConformanceReportJson
  reason?: string
}

/** Checks each file in turn; a file that is missing or no PDF is `unreadable`, never a verdict. */
export async function checkPdfFiles(
  files: readonly string[],
  profile: ConformanceProfile,
  validators: Iterable<ConformanceValidator>,
  { budgetMs, signal = new AbortController().signal }: { budgetMs: number; signal?: AbortSignal },
): Promise<FileCheck[]> {
  const chosen = validatorsFor(validators, profile)
  const results: FileCheck[] = []
  for (const file of files) {
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      results.push({
        file,
        status: 'unreadable',
        reason: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? err})`,
      })
      continue
    }
    if (!bytes.subarray(0, 1024).includes('%PDF-')) {
      results.push({ file, status: 'unreadable', reason: 'not a PDF (no %PDF- header)' })
      continue
    }
    const outcome = await validateWithin(chosen, bytes, { profile, signal, budgetMs, log: () => {} })
    if ('unavailable' in outcome) {
      // the operator's own command: the validators' words help them
      results.push({ file, status: 'unavailable', reason: outcome.detail })
      continue
    }
    const report = conformanceReportJson({ ...outcome.report, profile })
    results.push({ file, status: report.valid ? 'pass' : 'fail', report })
  }
  return results
}

/**
 * The validators of this installation for a command-line check, started, with their stop:
 * the built-in plugins that register validators (no renderer is started), the operator's
 * plugins (DOCSVC_PLUGINS) and veraPDF (DOCSVC_VERAPDF_PATH).
 */
export async function loadConformanceValidators(env: NodeJS.ProcessEnv): Promise<{
  config: Config
  validators: ConformanceValidator[]
  stop(): Promise<void>
}> {
  const config = loadConfig(env)
  const { STANDARD_PLUGINS } = await import('../composition/standard-plugins.ts')
  const builtins = STANDARD_PLUGINS.filter((p) => (p.provides.conformanceValidators ?? []).length > 0)
  if (config.verapdfPath) {
    const { veraPdfPlugin } = await import('./verapdf/verapdf-validator.ts')
    builtins.push(veraPdfPlugin(config.verapdfPath) as never)
  }
  const plugins = await loadPluginsOffline(config, env, builtins)
  // a validator's worker pool starts with its plugin; validating is a worker's work
  await plugins.start(['worker'])
  return {
    config,
    validators: registeredValues(plugins.registries.conformanceValidators),
    stop: () => plugins.stop(['worker']),
  }
}
