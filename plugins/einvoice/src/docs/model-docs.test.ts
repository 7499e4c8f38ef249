import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { modelTableMarkdown, withGeneratedTable } from './model-docs.ts'

const DOC = fileURLToPath(new URL('../../../../docs/einvoice-model.md', import.meta.url))

describe('docs/einvoice-model.md', () => {
  it('lists the model and the field matrix as the schema has them', () => {
    const document = readFileSync(DOC, 'utf8')
    const expected = withGeneratedTable(document, modelTableMarkdown())
    // after changing the model or the matrix: DOCSVC_WRITE_DOCS=1 npx vitest run plugins/einvoice/src/docs/model-docs.test.ts
    if (process.env.DOCSVC_WRITE_DOCS === '1') return writeFileSync(DOC, expected)
    expect(
      document,
      'docs/einvoice-model.md differs from the model; regenerate it (see the comment above)',
    ).toBe(expected)
  })

  it('shows each field with its term, kind and per-profile mark', () => {
    const table = modelTableMarkdown()
    expect(table.split('\n')[0]).toBe(
      '| field | term | meaning | kind | MINIMUM | BASIC_WL | BASIC | EN16931 | EXTENDED | XRECHNUNG |',
    )
    expect(table).toContain('| `seller.name` | BT-27 | Seller name | text | R | R | R | R | R | R |')
    expect(table).toContain(
      '| `buyer_reference` | BT-10 | Buyer reference (XRechnung: Leitweg-ID) | text | O | O | O | O | O | R |',
    )
    expect(table).toContain(
      '| `lines[].net_price` | BT-146 | Item net price | decimal | C | C | R | R | R | R |',
    )
    expect(table).toContain('| `notes` | BG-1 | Invoice notes | list | – | O | O | O | O | O |')
  })
})
