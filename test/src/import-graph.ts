import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, posix, relative, resolve, sep } from 'node:path'
import { type ImportKind, scanSource } from './import-scanner.ts'

/**
 * The import graph of the repository's own source: every file under the given folders, each import
 * it names, and where that import lands — a file of ours (relative path or a workspace package
 * through its package.json `exports`) or an outside package. Paths are relative to the root, with
 * forward slashes, so rules and checked-in lists read the same on every machine.
 */

export interface WorkspacePackage {
  readonly name: string
  /** folder relative to the root, e.g. `plugins/chromium` */
  readonly dir: string
  /** subpath (`.`, `./sdk`) to root-relative file, from package.json `exports` */
  readonly exports: ReadonlyMap<string, string>
}

export type ImportTarget =
  /** a relative import; `file` may not exist (a broken import still shows where it points) */
  | { readonly kind: 'file'; readonly file: string }
  /** a workspace package; `exported` is false for a deep path its `exports` does not list */
  | {
      readonly kind: 'package'
      readonly pkg: WorkspacePackage
      readonly subpath: string
      readonly exported: boolean
      readonly file: string
    }
  /** anything else: npm packages, `node:` builtins */
  | { readonly kind: 'external'; readonly name: string }

export interface ImportEdge {
  readonly from: string
  readonly specifier: string
  readonly kind: ImportKind
  readonly line: number
  readonly target: ImportTarget
}

/** A query on a table by name: the other way a feature can reach another feature's data. */
export interface TableUse {
  readonly from: string
  readonly table: string
  readonly line: number
}

export interface ImportGraph {
  readonly root: string
  readonly packages: readonly WorkspacePackage[]
  readonly files: readonly string[]
  readonly edges: readonly ImportEdge[]
  readonly tables: readonly TableUse[]
}

export interface GraphOptions {
  readonly root: string
  /** folders to scan, relative to the root; `plugins/*` scans each child */
  readonly folders: readonly string[]
  /** package folders outside package.json `workspaces` to resolve by name too (e.g. `examples/*`) */
  readonly extraPackages?: readonly string[]
}

const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', '.tools', '.git'])

export function buildImportGraph(options: GraphOptions): ImportGraph {
  const root = resolve(options.root)
  const rootManifest = readJson(join(root, 'package.json')) as { workspaces?: string[] }
  const packageFolders = expandFolders(root, [
    ...(rootManifest.workspaces ?? []),
    ...(options.extraPackages ?? []),
  ])
  const packages = packageFolders.flatMap((dir) => readPackage(root, dir) ?? [])
  const files = expandFolders(root, options.folders)
    .flatMap((folder) => listSourceFiles(root, folder))
    .sort()
  const edges: ImportEdge[] = []
  const tables: TableUse[] = []
  for (const from of files) {
    const source = readFileSync(join(root, from), 'utf8')
    const jsdoc = /\.[mc]?js$/.test(from)
    const scanned = scanSource(source, { jsdoc })
    for (const site of scanned.imports) {
      edges.push({ from, ...site, target: resolveImport(root, packages, from, site.specifier) })
    }
    for (const use of scanned.tables) tables.push({ from, ...use })
  }
  return { root, packages, files, edges, tables }
}

/** The workspace package a root-relative path belongs to (the deepest package folder holding it). */
export function packageOf(graph: ImportGraph, file: string): WorkspacePackage | undefined {
  let best: WorkspacePackage | undefined
  for (const pkg of graph.packages) {
    if (isInside(file, pkg.dir) && (best === undefined || pkg.dir.length > best.dir.length)) best = pkg
  }
  return best
}

export function isInside(file: string, folder: string): boolean {
  return file === folder || file.startsWith(`${folder}/`)
}

/** The file an edge lands on in this repository, if it lands on one of ours. */
export function targetFile(edge: ImportEdge): string | undefined {
  return edge.target.kind === 'external' ? undefined : edge.target.file
}

function resolveImport(
  root: string,
  packages: readonly WorkspacePackage[],
  from: string,
  specifier: string,
): ImportTarget {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const absolute = resolve(root, dirname(from), specifier)
    return { kind: 'file', file: existingFile(root, toPosix(relative(root, absolute))) }
  }
  const [first = '', second] = specifier.split('/')
  const name = first.startsWith('@') && second !== undefined ? `${first}/${second}` : first
  const pkg = packages.find((p) => p.name === name)
  if (pkg === undefined) return { kind: 'external', name }
  const subpath = `.${specifier.slice(name.length)}`
  const exported = pkg.exports.get(subpath) ?? matchPattern(pkg.exports, subpath)
  if (exported !== undefined) return { kind: 'package', pkg, subpath, exported: true, file: exported }
  const deep = existingFile(root, posix.normalize(posix.join(pkg.dir, subpath)))
  return { kind: 'package', pkg, subpath, exported: false, file: deep }
}

// `./features/*` -> `./src/features/*.ts`
function matchPattern(exports: ReadonlyMap<string, string>, subpath: string): string | undefined {
  for (const [key, file] of exports) {
    const star = key.indexOf('*')
    if (star === -1) continue
    const head = key.slice(0, star)
    const tail = key.slice(star + 1)
    if (subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length >= head.length + tail.length) {
      return file.replace('*', subpath.slice(head.length, subpath.length - tail.length))
    }
  }
  return undefined
}

// Node's and TypeScript's lookups for a path without an exact file: `.js` written for a `.ts`
// source, a missing extension, a folder's index
function existingFile(root: string, file: string): string {
  const candidates = [
    file,
    file.replace(/\.js$/, '.ts'),
    file.replace(/\.mjs$/, '.mts'),
    `${file}.ts`,
    `${file}.js`,
    `${file}/index.ts`,
    `${file}/index.js`,
  ]
  return candidates.find((c) => isFile(join(root, c))) ?? file
}

function readPackage(root: string, dir: string): WorkspacePackage | undefined {
  const manifestPath = join(root, dir, 'package.json')
  if (!existsSync(manifestPath)) return undefined
  const manifest = readJson(manifestPath) as { name?: string; exports?: unknown; main?: string }
  if (typeof manifest.name !== 'string') return undefined
  const exports = new Map<string, string>()
  const raw = manifest.exports ?? manifest.main ?? './index.js'
  const entries =
    typeof raw === 'string' || !isPlainObject(raw) || !Object.keys(raw).some((k) => k.startsWith('.'))
      ? [['.', raw] as const]
      : Object.entries(raw)
  for (const [subpath, value] of entries) {
    const target = conditionTarget(value)
    if (target !== undefined) exports.set(subpath, posix.normalize(posix.join(dir, target)))
  }
  return { name: manifest.name, dir, exports }
}

// a conditional export `{ types, import, default }`: the file an ESM import would load
function conditionTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (!isPlainObject(value)) return undefined
  for (const condition of ['import', 'node', 'default', 'types']) {
    const found = conditionTarget(value[condition])
    if (found !== undefined) return found
  }
  return undefined
}

function expandFolders(root: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return isDirectory(join(root, pattern)) ? [pattern] : []
    const parent = pattern.slice(0, -2)
    if (!isDirectory(join(root, parent))) return []
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
      .map((entry) => `${parent}/${entry.name}`)
      .sort()
  })
}

function listSourceFiles(root: string, folder: string): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && SOURCE_FILE.test(entry.name)) found.push(path)
    }
  }
  walk(folder)
  return found
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'))
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile()
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory()
}

function toPosix(path: string): string {
  return path.split(sep).join('/')
}
