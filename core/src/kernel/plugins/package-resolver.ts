import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'

// Node's own resolvers do not fit: createRequire().resolve() only knows the `require` condition
// (an ESM-only package whose exports say `import` looks missing), and import.meta.resolve()
// resolves from this file, not from the operator's plugin directories.

const CONDITIONS = ['node', 'import', 'default']

/** Where `name` is installed, looking in each directory's node_modules and those above it. */
export function findPackageDir(name: string, fromDirs: string[]): string | undefined {
  for (const from of fromDirs) {
    let dir = path.resolve(from)
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name)
      if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate)
      const parent = path.dirname(dir)
      if (parent === dir) break
      dir = parent
    }
  }
  return undefined
}

/** The file a bare `import name` loads: `exports` ('.', conditions node/import/default), `main`, index.js. */
export function packageEntry(packageDir: string): string {
  const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    exports?: unknown
    main?: string
  }
  if (pkg.exports !== undefined) {
    const target = exportTarget(rootExport(pkg.exports))
    if (!target)
      throw new Error('its package.json "exports" has no entry for "." under node, import or default')
    return path.join(packageDir, target)
  }
  const main = pkg.main ? path.join(packageDir, pkg.main) : undefined
  for (const file of main ? [main, `${main}.js`, path.join(main, 'index.js')] : []) {
    if (existsSync(file) && statSync(file).isFile()) return file
  }
  return path.join(packageDir, 'index.js')
}

function rootExport(exports: unknown): unknown {
  if (exports !== null && typeof exports === 'object' && !Array.isArray(exports)) {
    const keys = Object.keys(exports)
    // a subpath map ({ ".": ..., "./x": ... }) versus a conditions object ({ import: ... })
    if (keys.some((k) => k.startsWith('.'))) return (exports as Record<string, unknown>)['.']
  }
  return exports
}

function exportTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = exportTarget(t)
      if (found) return found
    }
    return undefined
  }
  if (target !== null && typeof target === 'object') {
    // Node takes the first key, in the object's order, that names an active condition
    for (const [condition, value] of Object.entries(target)) {
      if (!CONDITIONS.includes(condition)) continue
      const found = exportTarget(value)
      if (found) return found
    }
  }
  return undefined
}
