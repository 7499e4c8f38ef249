import { describe, expect, it } from 'vitest'
import { scanImports, scanTableReferences } from './import-scanner.ts'

// The boundary test is only as good as the scanner: every import form is found, and nothing that
// merely looks like an import (in a string, a comment, a template, a regex) is.

const specifiers = (source: string, jsdoc = false): string[] =>
  scanImports(source, { jsdoc }).map((s) => `${s.kind} ${s.specifier} @${s.line}`)

describe('scanImports', () => {
  it('finds every import form', () => {
    const source = [
      "import a from 'default'",
      "import * as ns from 'namespace'",
      "import { b, c as from } from 'named'",
      "import type { T } from 'type-only'",
      "import 'side-effect'",
      'import {',
      '  d,',
      '  e,',
      "} from 'multi-line'",
      "export * from 'star'",
      "export * as n2 from 'star-as'",
      "export { f } from 'reexport'",
      "export type { G } from 'type-reexport'",
      "const m = await import('dynamic')",
      "let x: import('type-query').T",
      "import fs = require('import-equals')",
      "const r = require('required')",
    ].join('\n')
    expect(specifiers(source)).toEqual([
      'import default @1',
      'import namespace @2',
      'import named @3',
      'import type-only @4',
      'import side-effect @5',
      'import multi-line @9',
      'export-from star @10',
      'export-from star-as @11',
      'export-from reexport @12',
      'export-from type-reexport @13',
      'dynamic dynamic @14',
      'dynamic type-query @15',
      'require import-equals @16',
      'require required @17',
    ])
  })

  it('ignores look-alikes in strings, comments, templates and regexes', () => {
    const source = [
      'const s = "import \'in-double-string\'"',
      "const t = 'export * from \\'in-single-string\\''",
      "// import 'in-line-comment'",
      "/* import x from 'in-block-comment' */",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text holding a template literal
      "const u = `import '${name}' from 'in-template' ${`nested ${\"import('deep')\"}`}`",
      "const re = /import '(in-regex)'/g",
      'const half = a / b / import.meta.url.length',
      "obj.import('method-call')",
      'export const from = 1',
      "export function f() { return 'not-a-reexport' }",
      "import after from 'after-all-of-that'",
    ].join('\n')
    expect(specifiers(source)).toEqual(['import after-all-of-that @11'])
  })

  it('reads JSDoc type imports only when asked (JavaScript checked by TypeScript)', () => {
    const source = "/** @returns {import('@docsvc/core/sdk').RenderInput} */\nexport function f() {}"
    expect(specifiers(source)).toEqual([])
    expect(specifiers(source, true)).toEqual(['jsdoc @docsvc/core/sdk @1'])
  })

  it('finds the tables a query builder names', () => {
    const source = [
      "const rows = await trx.selectFrom('renders as r').innerJoin('plans as p', 'p.id', 'r.plan_id')",
      "  .leftJoin('render_files', 'a', 'b')",
      "await db.kysely.insertInto('events').values(e)",
      "db?.updateTable('workspaces').set(x)",
      "await q.deleteFrom('uploads')",
      "const label = 'selectFrom(\\'not_this\\')'",
      "selectFrom('no_receiver')",
    ].join('\n')
    expect(scanTableReferences(source).map((t) => `${t.table} @${t.line}`)).toEqual([
      'renders @1',
      'plans @1',
      'render_files @2',
      'events @3',
      'workspaces @4',
      'uploads @5',
    ])
  })
})
