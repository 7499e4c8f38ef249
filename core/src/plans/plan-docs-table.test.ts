import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PLANS } from './default-plans.ts'
import { planTablesMarkdown, withGeneratedTables } from './plan-docs-table.ts'

const DOC = fileURLToPath(new URL('../../../docs/plans.md', import.meta.url))

describe('docs/plans.md', () => {
  it('shows the default plans as default-plans.ts has them', () => {
    const document = readFileSync(DOC, 'utf8')
    const expected = withGeneratedTables(document, planTablesMarkdown(DEFAULT_PLANS))
    // after changing the defaults: DOCSVC_WRITE_DOCS=1 npx vitest run core/src/plans/plan-docs-table.test.ts
    if (process.env.DOCSVC_WRITE_DOCS === '1') return writeFileSync(DOC, expected)
    expect(
      document,
      'docs/plans.md differs from default-plans.ts; regenerate it (see the comment above)',
    ).toBe(expected)
  })

  it('reads the plan data it is given: an edited plan and a plugin’s feature show', () => {
    const [free, ...rest] = DEFAULT_PLANS
    const edited = { ...free!, features: { ...free!.features, pdfa: true, greeting_cards: false } }
    const tables = planTablesMarkdown([...rest, edited], { greeting_cards: 'Greeting cards' })
    expect(tables.split('\n')[0]).toBe(
      '| feature | Free (`free`) | Starter (`starter`) | Growth (`growth`) | Pro (`pro`) | Scale (`scale`) |',
    )
    expect(tables).toContain('| PDF/A (`pdfa`) | yes | no | yes | yes | yes |')
    expect(tables).toContain('| Greeting cards (`greeting_cards`) | no | no | no | no | no |')
    expect(tables).toContain('| `max_body_bytes` | 5 MB | 10 MB | 25 MB | 50 MB | 50 MB |')
    expect(tables).toContain('| `included_renders` | 50 | 1,000 | 5,000 | 20,000 | 100,000 |')
  })
})
