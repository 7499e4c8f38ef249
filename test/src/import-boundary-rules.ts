import { existsSync } from 'node:fs'
import { join, posix } from 'node:path'
import {
  type ImportEdge,
  type ImportGraph,
  isInside,
  packageOf,
  type TableUse,
  targetFile,
} from './import-graph.ts'

/**
 * The layering rules of docsvc (decision 0032), checked on the import graph:
 *
 * - `extension-sdk-only`: a plugin, provider or example plugin imports nothing of docsvc but
 *   `@docsvc/core/sdk` (its tests also `@docsvc/core/testing`): no other `@docsvc/*` package, no
 *   deep path into core, no relative path out of its own package. A third party has only these.
 * - `core-no-extension`: core imports no plugin or provider — no other workspace package and no
 *   relative path out of `core/` — except the composition root files named below. Core code and
 *   tests that need a built-in plugin import a composition root file, which is an edge inside core
 *   and allowed on purpose: they get the plugin the way a serving process does, by id, without
 *   naming its package (tests through core/src/testing/standard-plugin.ts, decision 0065).
 * - `feature-owns-data`: a file in `core/src/<A>/` does not import another folder's repository or
 *   table definitions (`core/src/<B>/*-repository.ts`, `*-tables.ts`), directly or through a file
 *   that re-exports them, and its non-test code queries no table B owns (`TABLE_OWNERS`); it goes
 *   through B's service or events.
 */

export type BoundaryRule = 'extension-sdk-only' | 'core-no-extension' | 'feature-owns-data'

export interface Violation {
  readonly rule: BoundaryRule
  /** the importing file, root-relative */
  readonly file: string
  /** the module specifier as written, or `table <name>` for a query on another feature's table */
  readonly imports: string
  readonly line: number
  readonly why: string
}

/**
 * Core files allowed to import plugins because they are the composition root: the list of what a
 * process loads has to name every built-in plugin. It lives in the composition root (decision 0035);
 * when a list moves, rename its entry (a listed file that no longer exists fails the test).
 */
export const COMPOSITION_ROOTS: ReadonlyMap<string, string> = new Map([
  ['core/src/composition/standard-plugins.ts', 'the built-in plugins of a serving process'],
  ['core/src/composition/provider-plugins.ts', 'the built-in providers, all an admin command loads'],
])

/**
 * Which feature folder owns each table: the one whose migration creates it and whose repository
 * writes it. Features keep their migrations in `core/src/<feature>/migrations/` (listed in
 * core/src/db/feature-migrations.ts); the platform tables of 0001 too, as parts that
 * core/src/db/migrations/0001-platform.ts runs under its recorded name. A new table is added here
 * with its owner.
 */
export const TABLE_OWNERS: ReadonlyMap<string, string> = new Map([
  ['plans', 'plans'],
  ['workspaces', 'workspaces'],
  ['workspace_members', 'members'],
  ['ended_ownerships', 'members'],
  ['owner_limit_locks', 'members'],
  ['api_keys', 'api-keys'],
  ['api_key_usage', 'api-keys'],
  ['idempotency_keys', 'idempotency'],
  ['rate_limit_counters', 'rate-limits'],
  ['renders', 'renders'],
  ['render_files', 'renders'],
  ['render_logs', 'renders'],
  ['billed_renders', 'renders'],
  ['billing_accounts', 'billing'],
  ['billing_cycles', 'billing'],
  ['billing_reservations', 'billing'],
  ['billing_thresholds', 'billing'],
  ['events', 'events'],
  ['templates', 'templates'],
  ['template_versions', 'templates'],
  ['template_datasets', 'templates'],
  ['uploads', 'uploads'],
  ['webhook_endpoints', 'webhooks'],
  ['webhook_deliveries', 'webhooks'],
  ['webhook_delivery_attempts', 'webhooks'],
  ['storage_destinations', 'storage'],
])

const CORE_PACKAGE = '@docsvc/core'
const EXTENSION_FOLDERS = ['plugins', 'providers', 'examples']
const SDK_SUBPATHS = new Set(['./sdk'])
const TEST_SDK_SUBPATHS = new Set(['./sdk', './testing'])
// the files through which a feature's data is reached: its repositories and its table types
const FEATURE_DATA_FILE = /-(repository|tables)\.[cm]?ts$/
const CORE_SOURCE = 'core/src'

/** Tests, fixtures, test support and benchmarks: they may use `@docsvc/core/testing`. */
export function isTestFile(file: string): boolean {
  const name = posix.basename(file)
  return (
    /\.(test|spec|fixture|bench)\.[cm]?[jt]s$/.test(name) ||
    /-test-support\.[cm]?[jt]s$/.test(name) ||
    /(^|\/)(bench|test|tests|__tests__)\//.test(file.replace(/^(plugins|providers|examples)\/[^/]+\//, ''))
  )
}

export function isExtensionFile(file: string): boolean {
  return EXTENSION_FOLDERS.some((folder) => file.startsWith(`${folder}/`))
}

/** `renders` for `core/src/renders/render-runner.ts`; undefined for files directly in core/src. */
export function featureOf(file: string): string | undefined {
  if (!file.startsWith(`${CORE_SOURCE}/`)) return undefined
  const parts = file.slice(CORE_SOURCE.length + 1).split('/')
  return parts.length > 1 ? parts[0] : undefined
}

export function findViolations(graph: ImportGraph): Violation[] {
  const reexports = reexportIndex(graph)
  const found: Violation[] = []
  for (const edge of graph.edges) {
    if (isExtensionFile(edge.from)) found.push(...extensionViolations(graph, edge))
    else if (isInside(edge.from, 'core')) {
      found.push(...coreViolations(graph, edge), ...featureViolations(edge, reexports))
    }
  }
  for (const use of graph.tables) found.push(...tableViolations(use))
  return dedupe(found)
}

/** Composition roots that no longer exist: an allowance must not outlive its file. */
export function staleCompositionRoots(root: string): string[] {
  return [...COMPOSITION_ROOTS.keys()].filter((file) => !existsSync(join(root, file)))
}

function extensionViolations(graph: ImportGraph, edge: ImportEdge): Violation[] {
  const own = packageOf(graph, edge.from)
  const t = edge.target
  const v = (why: string): Violation[] => [violation('extension-sdk-only', edge, why)]
  if (t.kind === 'external') {
    return t.name.startsWith('@docsvc/') ? v(`${t.name} is not a package of this repository's SDK`) : []
  }
  if (t.kind === 'file') {
    if (own !== undefined && isInside(t.file, own.dir)) return []
    return v(`relative path leaves ${own?.dir ?? 'its package'} (lands on ${t.file})`)
  }
  if (own !== undefined && t.pkg.name === own.name) return []
  if (t.pkg.name !== CORE_PACKAGE) return v(`${t.pkg.name} is another docsvc package`)
  const allowed = isTestFile(edge.from) ? TEST_SDK_SUBPATHS : SDK_SUBPATHS
  if (allowed.has(t.subpath)) return []
  return v(
    t.subpath === './testing'
      ? '@docsvc/core/testing is for tests only'
      : `${edge.specifier} is core's inside, not its SDK`,
  )
}

function coreViolations(graph: ImportGraph, edge: ImportEdge): Violation[] {
  if (COMPOSITION_ROOTS.has(edge.from)) return []
  const t = edge.target
  const v = (why: string): Violation[] => [violation('core-no-extension', edge, why)]
  if (t.kind === 'external') {
    return t.name.startsWith('@docsvc/') ? v(`${t.name} is a docsvc package outside core`) : []
  }
  if (t.kind === 'file')
    return isInside(t.file, 'core') ? [] : v(`relative path leaves core (lands on ${t.file})`)
  if (t.pkg.name === CORE_PACKAGE) return []
  const pkg = packageOf(graph, t.file)
  const what =
    pkg !== undefined && isExtensionFile(pkg.dir) ? 'a plugin/provider package' : 'a package above core'
  return v(`${t.pkg.name} is ${what}`)
}

function featureViolations(edge: ImportEdge, reexports: ReadonlyMap<string, readonly string[]>): Violation[] {
  const feature = featureOf(edge.from)
  const file = targetFile(edge)
  if (feature === undefined || file === undefined) return []
  const reached = [file, ...(exposedData(file, reexports) ?? [])].filter((f) => FEATURE_DATA_FILE.test(f))
  const foreign = reached.filter((f) => {
    const owner = featureOf(f)
    return owner !== undefined && owner !== feature
  })
  if (foreign.length === 0) return []
  return [
    violation(
      'feature-owns-data',
      edge,
      `${feature} reaches another feature's data: ${[...new Set(foreign)].join(', ')}`,
    ),
  ]
}

// Test code and core's test kit may set up any table; feature code queries only its own. A table
// missing from TABLE_OWNERS is flagged too, so the map stays complete.
function tableViolations(use: TableUse): Violation[] {
  const feature = featureOf(use.from)
  if (feature === undefined || feature === 'testing' || isTestFile(use.from)) return []
  const owner = TABLE_OWNERS.get(use.table)
  if (owner === feature) return []
  const why =
    owner === undefined
      ? `table ${use.table} has no owner in TABLE_OWNERS (add it, or it is not a table)`
      : `${feature} queries ${owner}'s table ${use.table}`
  return [{ rule: 'feature-owns-data', file: use.from, imports: `table ${use.table}`, line: use.line, why }]
}

// file -> the files it re-exports with `export ... from`, for following barrels
function reexportIndex(graph: ImportGraph): Map<string, string[]> {
  const index = new Map<string, string[]>()
  for (const edge of graph.edges) {
    const file = targetFile(edge)
    if (edge.kind !== 'export-from' || file === undefined) continue
    index.set(edge.from, [...(index.get(edge.from) ?? []), file])
  }
  return index
}

function exposedData(file: string, reexports: ReadonlyMap<string, readonly string[]>): string[] {
  const seen = new Set<string>([file])
  const queue = [file]
  while (queue.length > 0) {
    for (const next of reexports.get(queue.pop()!) ?? []) {
      if (seen.has(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  seen.delete(file)
  return [...seen]
}

function violation(rule: BoundaryRule, edge: ImportEdge, why: string): Violation {
  return { rule, file: edge.from, imports: edge.specifier, line: edge.line, why }
}

// one entry per file and specifier: `import type` next to `import` of the same module is one edge
function dedupe(violations: readonly Violation[]): Violation[] {
  const byKey = new Map<string, Violation>()
  for (const v of violations) {
    const key = violationKey(v)
    if (!byKey.has(key)) byKey.set(key, v)
  }
  return [...byKey.values()].sort((a, b) => violationKey(a).localeCompare(violationKey(b)))
}

export function violationKey(v: { readonly file: string; readonly imports: string }): string {
  return `${v.file} -> ${v.imports}`
}
