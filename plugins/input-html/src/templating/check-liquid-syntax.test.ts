import { describe, expect, it } from 'vitest'
import { checkLiquidSyntax, renderLiquid } from './index.ts'

interface Failure {
  code: unknown
  detail: unknown
  extras: unknown
}

function failureOf(check: () => void): Failure | 'passed' {
  try {
    check()
    return 'passed'
  } catch (e) {
    const err = e as Failure
    return { code: err.code, detail: err.detail, extras: err.extras }
  }
}

// line 7, column 12 is where `{% iff %}` starts
const INVOICE_WITH_TYPO = [
  '<h1>Invoice {{ number }}</h1>',
  '<table>',
  '{% for line in lines %}',
  '  <tr><td>{{ line.text }}</td></tr>',
  '{% endfor %}',
  '</table>',
  '<p>Totals: {% iff paid %}paid{% endif %}</p>',
  '<footer>{{ company }}</footer>',
].join('\n')

describe('checkLiquidSyntax', () => {
  it('reports a syntax error at its exact line and column, with the line as excerpt', () => {
    expect(failureOf(() => checkLiquidSyntax(INVOICE_WITH_TYPO))).toEqual({
      code: 'template_syntax_error',
      detail: 'tag "iff" not found (line 7, column 12)',
      extras: { line: 7, column: 12, excerpt: '<p>Totals: {% iff paid %}paid{% endif %}</p>' },
    })
  })

  it('reports the same position when the template is rendered', async () => {
    const rendered = await renderLiquid(INVOICE_WITH_TYPO, { lines: [] }).catch((err: Failure) => err)
    expect(rendered).toMatchObject({
      code: 'template_syntax_error',
      extras: { line: 7, column: 12, excerpt: '<p>Totals: {% iff paid %}paid{% endif %}</p>' },
    })
  })

  it('reports unclosed blocks, broken outputs and unknown filters as syntax errors', () => {
    expect(failureOf(() => checkLiquidSyntax('a\n{% if paid %}\nb'))).toMatchObject({
      code: 'template_syntax_error',
      extras: { line: 2, column: 1, excerpt: '{% if paid %}' },
    })
    expect(failureOf(() => checkLiquidSyntax('x {{ total '))).toMatchObject({
      code: 'template_syntax_error',
      extras: { line: 1, column: 3 },
    })
    expect(failureOf(() => checkLiquidSyntax('{{ total | monee: "EUR" }}', { label: 'footer' }))).toEqual({
      code: 'template_syntax_error',
      detail: 'footer: undefined filter: monee (line 1, column 1)',
      extras: { line: 1, column: 1, excerpt: '{{ total | monee: "EUR" }}' },
    })
  })

  it('checks every partial and names the one at fault', () => {
    const partials = { row: '<tr>{{ r }}</tr>', total: '<p>\n  {% endfor %}</p>' }
    expect(failureOf(() => checkLiquidSyntax('{% render "row" %}', { label: 'body', partials }))).toEqual({
      code: 'template_syntax_error',
      detail: 'body: partial "total": tag "endfor" not found (line 2, column 3)',
      extras: { line: 2, column: 3, excerpt: '  {% endfor %}</p>' },
    })
  })

  it('passes a valid template without rendering it', () => {
    // rendering would fail (strict variables, a missing partial); parsing does not
    expect(failureOf(() => checkLiquidSyntax('{{ missing.deep }} {% render "absent" %}'))).toBe('passed')
    expect(failureOf(() => checkLiquidSyntax('{% for i in (1..1000000000) %}{% endfor %}'))).toBe('passed')
    // the document filters are known to the check
    const filtered =
      "{{ t | money: 'EUR', 'de-DE' }} {{ d | date_format: 'long' }} {{ n | pad_start: 4, '0' }}"
    expect(failureOf(() => checkLiquidSyntax(filtered))).toBe('passed')
  })

  it('stops at the parse budget', () => {
    expect(
      failureOf(() => checkLiquidSyntax('x'.repeat(101), { limits: { parseChars: 100 } })),
    ).toMatchObject({
      code: 'template_fuel_exhausted',
      extras: {},
    })
  })
})
