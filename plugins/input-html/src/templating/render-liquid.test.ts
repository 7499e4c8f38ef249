import { describe, expect, it } from 'vitest'
import {
  configureLiquidWorkers,
  DEFAULT_LIQUID_WORKERS,
  positionOf,
  renderLiquid,
  renderLiquidWithWarnings,
  stopLiquidWorkers,
} from './index.ts'

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
    // no file system behind the map, not even by absolute or relative path
    for (const path of ['/etc/hostname', '../../../package.json', 'render-liquid.ts']) {
      const err = await renderLiquid(`{% render "${path}" %}`, {}, { partials }).catch((e: Error) => e)
      expect(err).toMatchObject({
        code: 'template_runtime_error',
        detail: `partial "${path}" not found (line 1, column 1)`,
      })
    }
  })

  it('names the partial an error happened in, with the position inside it', async () => {
    const partials = { row: '<tr>\n<td>{{ r.price }}</td></tr>' }
    const source = '{% for r in rows %}{% render "row", r: r %}{% endfor %}'
    const err = await renderLiquid(
      source,
      { rows: [{}] },
      { partials, strictVariables: true, label: 'body' },
    ).catch((e: { code: unknown; detail: unknown; extras: unknown }) => e)
    expect(err).toMatchObject({
      code: 'template_runtime_error',
      detail: 'body: partial "row": undefined variable: r.price (line 2, column 8)',
      extras: { line: 2, column: 8, excerpt: '<td>{{ r.price }}</td></tr>' },
    })
  })

  it('returns warnings beside the output when asked', async () => {
    expect(await renderLiquidWithWarnings('{{ "ok" | upcase }}', {})).toEqual({ output: 'OK', warnings: [] })
  })

  it('refuses data that cannot cross to the worker, and keeps serving', async () => {
    await expect(renderLiquid('{{ f }}', { f: () => 1 })).rejects.toThrow(/could not be cloned/)
    expect(await renderLiquid('{{ d.a }}', { d: { a: 'cloned' } })).toBe('cloned')
  })

  it('starts fresh workers after a stop, and honours a smaller heap budget', async () => {
    await stopLiquidWorkers()
    expect(await renderLiquid('{{ 2 | times: 3 }}', {})).toBe('6')
    configureLiquidWorkers({ heapMb: 32 })
    try {
      const bomb =
        '{% assign a = "x,y" | split: "," %}{% for i in (1..40) %}{% assign a = a | concat: a %}{% endfor %}'
      expect(
        await codeOf(
          renderLiquid(bomb, {}, { limits: { memory: Number.MAX_SAFE_INTEGER, renderMs: 30_000 } }),
        ),
      ).toEqual({ code: 'template_fuel_exhausted', extras: {} })
    } finally {
      configureLiquidWorkers(DEFAULT_LIQUID_WORKERS)
    }
    expect(await renderLiquid('{{ 2 | times: 3 }}', {})).toBe('6')
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
