import { describe, expect, it } from 'vitest'
import { positionOf, renderLiquid } from './index.ts'

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'no error',
    (err: { code: unknown; extras: unknown }) => ({ code: err.code, extras: err.extras }),
  )
}

describe('renderLiquid', () => {
  it('renders with data and standard filters', async () => {
    expect(await renderLiquid('{{ n | plus: 1 }} {{ s | default: "none" }}', { n: 41 })).toBe('42 none')
  })

  it('renders partials given in memory, and only those', async () => {
    const partials = { row: '<tr>{{ r }}</tr>' }
    const out = await renderLiquid(
      '{% for r in rows %}{% render "row", r: r %}{% endfor %}',
      { rows: [1, 2] },
      { partials },
    )
    expect(out).toBe('<tr>1</tr><tr>2</tr>')
    expect(await codeOf(renderLiquid('{% include "other" %}', {}, { partials }))).toMatchObject({
      code: 'template_runtime_error',
    })
  })

  it('makes undefined variables runtime errors when strict', async () => {
    expect(await renderLiquid('[{{ missing }}]', {})).toBe('[]')
    expect(await codeOf(renderLiquid('a\n  {{ missing }}', {}, { strictVariables: true }))).toEqual({
      code: 'template_runtime_error',
      extras: { line: 2, column: 6, excerpt: '  {{ missing }}' },
    })
  })

  it('stops on its limits', async () => {
    const big = 'x'.repeat(101)
    expect(await codeOf(renderLiquid(big, {}, { limits: { parseChars: 100 } }))).toEqual({
      code: 'template_fuel_exhausted',
      extras: {},
    })
    expect(
      await codeOf(
        renderLiquid('{% for i in (1..2000) %}{{ i }}{% endfor %}', {}, { limits: { memory: 1000 } }),
      ),
    ).toMatchObject({ code: 'template_fuel_exhausted' })
    const slow = '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}'
    const started = Date.now()
    expect(await codeOf(renderLiquid(slow, {}, { limits: { renderMs: 100 } }))).toMatchObject({
      code: 'template_fuel_exhausted',
    })
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('positionOf', () => {
  it('counts lines and columns from 1 and drops a CR from the excerpt', () => {
    const source = 'ab\r\ncd {{ x }}\r\nef'
    expect(positionOf(source, source.indexOf('{{'))).toEqual({ line: 2, column: 4, excerpt: 'cd {{ x }}' })
    expect(positionOf(source, 0)).toEqual({ line: 1, column: 1, excerpt: 'ab' })
  })

  it('quotes a window around the column of a very long line', () => {
    const source = `${'a'.repeat(1000)}{% bad %}${'b'.repeat(1000)}`
    const { line, column, excerpt } = positionOf(source, 1000)
    expect({ line, column }).toEqual({ line: 1, column: 1001 })
    expect(excerpt).toContain('{% bad %}')
    expect(excerpt.length).toBeLessThanOrEqual(202)
  })
})
