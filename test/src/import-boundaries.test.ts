import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { KNOWN_VIOLATIONS } from './import-boundary-ratchet.ts'
import {
  COMPOSITION_ROOTS,
  findViolations,
  staleCompositionRoots,
  TABLE_OWNERS,
  type Violation,
  violationKey,
} from './import-boundary-rules.ts'
import { buildImportGraph, packageOf } from './import-graph.ts'

// Issue 14 item 6, decision 0032: plugins and providers see only the SDK, core sees no plugin, a
// feature reaches no other feature's data. Today's violations are a ratchet that only shrinks.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SCANNED = ['core', 'cli', 'plugins/*', 'providers/*', 'examples/*']

describe('import boundaries', () => {
  const started = performance.now()
  const graph = buildImportGraph({ root: ROOT, folders: SCANNED, extraPackages: ['examples/*'] })
  const found = findViolations(graph)
  const elapsed = Math.round(performance.now() - started)

  it('has no violation beyond the known list, and every listed one still exists', () => {
    const known = new Map(KNOWN_VIOLATIONS.map((k) => [violationKey(k), k]))
    const foundKeys = new Set(found.map(violationKey))
    const unlisted = found.filter((v) => !known.has(violationKey(v)))
    const fixed = KNOWN_VIOLATIONS.filter((k) => !foundKeys.has(violationKey(k)))
    console.log(
      `import boundaries: ${graph.files.length} files, ${graph.edges.length} imports, ${graph.tables.length} table ` +
        `queries scanned in ${elapsed} ms; ` +
        `${found.length} violations (${found.length - unlisted.length} known), ${unlisted.length} new, ` +
        `${fixed.length} listed but gone; by rule: ${countByRule(found)}`,
    )
    expect.soft(unlisted.map(describeNew), NEW_HELP).toEqual([])
    expect.soft(fixed.map(violationKey), FIXED_HELP).toEqual([])
  })

  it('lists each known violation once', () => {
    const keys = KNOWN_VIOLATIONS.map(violationKey)
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([])
  })

  it('allows plugins in no core file but the composition roots, which still exist', () => {
    expect(staleCompositionRoots(ROOT), 'a composition root moved: rename it in COMPOSITION_ROOTS').toEqual(
      [],
    )
    // the walker must see what the allowance covers, or a scanner bug would pass silently
    for (const file of COMPOSITION_ROOTS.keys()) {
      const plugins = graph.edges.filter(
        (e) =>
          e.from === file && e.target.kind === 'package' && packageOf(graph, e.target.file)?.dir !== 'core',
      )
      expect(plugins.length, `${file} imports no plugin: drop it from COMPOSITION_ROOTS`).toBeGreaterThan(0)
    }
  })
})

describe('table owners', () => {
  // the rule flags a query on a table by the owner TABLE_OWNERS names: that must be the folder
  // whose `<feature>-tables.ts` joins the table to Database, platform tables of 0001 included
  it('names for each table the feature whose tables file declares it, and every declared table', () => {
    const declared = declaredTables(join(ROOT, 'core/src'))
    expect(declared.size, 'no tables file found: the scan is broken').toBeGreaterThan(10)
    expect(new Map([...TABLE_OWNERS].sort())).toEqual(new Map([...declared].sort()))
  })
})

/** table -> feature folder, from the `interface Database` each `core/src/<feature>/*-tables.ts` merges */
function declaredTables(coreSource: string): Map<string, string> {
  const owners = new Map<string, string>()
  for (const feature of readdirSync(coreSource, { withFileTypes: true })) {
    if (!feature.isDirectory()) continue
    for (const file of readdirSync(join(coreSource, feature.name))) {
      if (!file.endsWith('-tables.ts')) continue
      const source = readFileSync(join(coreSource, feature.name, file), 'utf8')
      const body = /interface Database \{([^}]*)\}/.exec(source)?.[1] ?? ''
      for (const [, table] of body.matchAll(/^\s*(\w+):/gm)) owners.set(table!, feature.name)
    }
  }
  return owners
}

function countByRule(violations: readonly Violation[]): string {
  const counts = new Map<string, number>()
  for (const v of violations) counts.set(v.rule, (counts.get(v.rule) ?? 0) + 1)
  return [...counts].map(([rule, n]) => `${rule} ${n}`).join(', ')
}

function describeNew(v: Violation): string {
  return `[${v.rule}] ${v.file}:${v.line} imports '${v.imports}': ${v.why}`
}

const NEW_HELP =
  'New import-boundary violations (decision 0032). A plugin or provider imports only @docsvc/core/sdk ' +
  '(tests also @docsvc/core/testing); core imports no plugin (go through an extension point); a feature ' +
  "reaches another feature through its service or events, not its repository, table types or table queries. Don't add them to " +
  'test/src/import-boundary-ratchet.ts; fix the import.'

const FIXED_HELP =
  'These listed violations no longer exist: delete them from KNOWN_VIOLATIONS in ' +
  'test/src/import-boundary-ratchet.ts (the list only shrinks). If the file moved and still imports ' +
  'the same thing, the violation now shows under its new path as new.'
