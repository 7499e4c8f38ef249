/**
 * Finds the module specifiers a TypeScript or JavaScript source imports, without a compiler: a
 * small tokenizer skips comments, strings, template literals and regular expressions (so an
 * `import '...'` inside a string or a comment is not an import), then matches the import forms on
 * the tokens. TypeScript 7's compiler has no JavaScript API to walk a program with, and this scans
 * the whole repository in well under a second.
 */

export type ImportKind = 'import' | 'export-from' | 'dynamic' | 'require' | 'jsdoc'

export interface ImportSite {
  readonly specifier: string
  readonly kind: ImportKind
  /** 1-based line of the specifier */
  readonly line: number
}

interface Token {
  readonly type: 'id' | 'str' | 'tmpl' | 'num' | 'punct' | 'regex'
  readonly value: string
  readonly line: number
}

export interface ScanOptions {
  /**
   * Also read `import('...')` inside comments: in a `// @ts-check` JavaScript file a JSDoc type
   * such as `{import('@docsvc/core/sdk').RenderInput}` is a real dependency. Off for TypeScript,
   * where a comment mentioning `import('x')` is prose.
   */
  readonly jsdoc?: boolean
}

/** Every statically named import of `source`: static, type-only, re-export, dynamic and require. */
export function scanImports(source: string, options: ScanOptions = {}): ImportSite[] {
  return scanSource(source, options).imports
}

/** Imports and table references of `source`, from one pass of the tokenizer. */
export function scanSource(
  source: string,
  options: ScanOptions = {},
): { imports: ImportSite[]; tables: TableReference[] } {
  const { tokens, comments } = tokenize(source)
  const imports = matchImports(tokens)
  if (options.jsdoc) {
    for (const comment of comments) imports.push(...jsdocImports(comment.text, comment.line))
  }
  imports.sort((a, b) => a.line - b.line)
  return { imports, tables: matchTables(tokens) }
}

export interface TableReference {
  readonly table: string
  readonly line: number
}

// Kysely's query builder methods whose first argument names a table: what a feature reads or writes
const TABLE_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
])

/**
 * The tables `source` queries by name: `.selectFrom('renders as r')`, `.innerJoin('plans', ...)`.
 * Raw `sql` text and schema builders (migrations) are not read.
 */
export function scanTableReferences(source: string): TableReference[] {
  return scanSource(source).tables
}

function matchTables(tokens: readonly Token[]): TableReference[] {
  const found: TableReference[] = []
  for (let i = 1; i + 2 < tokens.length; i++) {
    const t = tokens[i]!
    if (t.type !== 'id' || !TABLE_METHODS.has(t.value)) continue
    const dot = tokens[i - 1]!
    const open = tokens[i + 1]!
    const arg = tokens[i + 2]!
    if (dot.type !== 'punct' || dot.value !== '.' || open.value !== '(' || arg.type !== 'str') continue
    const table = arg.value.trim().split(/\s+/)[0] ?? ''
    if (table !== '') found.push({ table, line: arg.line })
  }
  return found
}

function matchImports(tokens: readonly Token[]): ImportSite[] {
  const sites: ImportSite[] = []
  const at = (i: number): Token | undefined => tokens[i]
  const is = (i: number, type: Token['type'], value?: string): boolean => {
    const t = tokens[i]
    return t !== undefined && t.type === type && (value === undefined || t.value === value)
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.type !== 'id' || is(i - 1, 'punct', '.')) continue
    if (t.value === 'import') {
      // import('x') — a dynamic import, or a type query `import('x').T`
      if (is(i + 1, 'punct', '(')) {
        if (is(i + 2, 'str') && (is(i + 3, 'punct', ')') || is(i + 3, 'punct', ','))) {
          sites.push(site(at(i + 2)!, 'dynamic'))
        }
        continue
      }
      if (is(i + 1, 'punct', '.')) continue // import.meta
      if (is(i + 1, 'str')) {
        sites.push(site(at(i + 1)!, 'import'))
        continue
      }
      // import a, { b as from } from 'x' — the first `from` followed by a string ends it; `=`
      // means `import x = require('x')`, which the require branch reads
      for (let j = i + 1; j < tokens.length; j++) {
        if (is(j, 'punct', ';') || is(j, 'punct', '=')) break
        if (is(j, 'id', 'from') && is(j + 1, 'str')) {
          sites.push(site(at(j + 1)!, 'import'))
          break
        }
      }
    } else if (t.value === 'export') {
      // export * from 'x' | export * as ns from 'x' | export [type] { a, b } from 'x'
      let j = i + 1
      if (is(j, 'id', 'type')) j++
      if (is(j, 'punct', '*')) {
        j++
        if (is(j, 'id', 'as')) j += 2
      } else if (is(j, 'punct', '{')) {
        while (j < tokens.length && !is(j, 'punct', '}')) j++
        j++
      } else {
        continue
      }
      if (is(j, 'id', 'from') && is(j + 1, 'str')) sites.push(site(at(j + 1)!, 'export-from'))
    } else if (t.value === 'require') {
      if (is(i + 1, 'punct', '(') && is(i + 2, 'str') && is(i + 3, 'punct', ')')) {
        sites.push(site(at(i + 2)!, 'require'))
      }
    }
  }
  return sites
}

function site(token: Token, kind: ImportKind): ImportSite {
  return { specifier: token.value, kind, line: token.line }
}

const JSDOC_IMPORT = /import\(\s*(['"])([^'"\n]+)\1\s*\)/g

function jsdocImports(text: string, firstLine: number): ImportSite[] {
  const sites: ImportSite[] = []
  for (const match of text.matchAll(JSDOC_IMPORT)) {
    const line = firstLine + countNewlines(text, 0, match.index)
    sites.push({ specifier: match[2]!, kind: 'jsdoc', line })
  }
  return sites
}

// after these keywords a `/` starts a regular expression, not a division
const REGEX_AFTER_KEYWORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
])

interface Comment {
  readonly text: string
  readonly line: number
}

function tokenize(src: string): { tokens: Token[]; comments: Comment[] } {
  const tokens: Token[] = []
  const comments: Comment[] = []
  // for each open template literal, the brace depth its current `${` opened at
  const templates: number[] = []
  let depth = 0
  let line = 1
  let i = 0
  const n = src.length

  const regexAllowed = (): boolean => {
    const prev = tokens[tokens.length - 1]
    if (prev === undefined) return true
    if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']'
    if (prev.type === 'id') return REGEX_AFTER_KEYWORD.has(prev.value)
    return false
  }

  // reads template text from i (just after '`' or a closing '}') to its end or next '${'
  const templateText = (): void => {
    const startLine = line
    while (i < n) {
      const c = src[i]
      if (c === '\\') {
        if (src[i + 1] === '\n') line++
        i += 2
      } else if (c === '`') {
        i++
        tokens.push({ type: 'tmpl', value: '', line: startLine })
        return
      } else if (c === '$' && src[i + 1] === '{') {
        i += 2
        templates.push(depth)
        depth++
        return
      } else {
        if (c === '\n') line++
        i++
      }
    }
  }

  while (i < n) {
    const c = src[i]!
    if (c === '\n') {
      line++
      i++
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF') {
      i++
    } else if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i)
      const stop = end === -1 ? n : end
      comments.push({ text: src.slice(i, stop), line })
      i = stop
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2)
      const stop = end === -1 ? n : end + 2
      comments.push({ text: src.slice(i, stop), line })
      line += countNewlines(src, i, stop)
      i = stop
    } else if (c === "'" || c === '"') {
      const startLine = line
      let value = ''
      i++
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\') {
          value += src[i + 1] ?? ''
          i += 2
        } else {
          value += src[i]
          i++
        }
      }
      i++
      tokens.push({ type: 'str', value, line: startLine })
    } else if (c === '`') {
      i++
      templateText()
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === depth - 1) {
      templates.pop()
      depth--
      i++
      templateText()
    } else if (c === '/' && regexAllowed()) {
      const startLine = line
      let inClass = false
      i++
      while (i < n && src[i] !== '\n') {
        const r = src[i]
        if (r === '\\') i++
        else if (r === '[') inClass = true
        else if (r === ']') inClass = false
        else if (r === '/' && !inClass) break
        i++
      }
      i++
      while (i < n && /[a-z]/i.test(src[i]!)) i++ // flags
      tokens.push({ type: 'regex', value: '', line: startLine })
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      const start = i
      i++
      while (i < n && /[\w$\u0080-\uffff]/.test(src[i]!)) i++
      tokens.push({ type: 'id', value: src.slice(start, i), line })
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const start = i
      i++
      while (i < n && /[\w.]/.test(src[i]!)) i++
      tokens.push({ type: 'num', value: src.slice(start, i), line })
    } else {
      if (c === '{') depth++
      else if (c === '}') depth--
      tokens.push({ type: 'punct', value: c, line })
      i++
    }
  }
  return { tokens, comments }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) count++
  return count
}
