import { Liquid } from 'liquidjs'
import { describe, expect, it } from 'vitest'
import { describeTemplateError } from './template-error.ts'

function thrownBy(render: () => unknown): unknown {
  try {
    render()
  } catch (err) {
    return err
  }
  throw new Error('expected a throw')
}

describe('describeTemplateError', () => {
  const engine = new Liquid()

  it('tells syntax from runtime errors and keeps the position', () => {
    expect(describeTemplateError(thrownBy(() => engine.parse('ok\n {% if %}')))).toMatchObject({
      code: 'template_syntax_error',
      position: { line: 2, column: 7, excerpt: ' {% if %}' },
    })
    const runtime = thrownBy(() => engine.parseAndRenderSync('{{ x }}', {}, { strictVariables: true }))
    expect(describeTemplateError(runtime)).toEqual({
      code: 'template_runtime_error',
      message: 'undefined variable: x',
      position: { line: 1, column: 4, excerpt: '{{ x }}' },
    })
  })

  it("counts liquidjs' limits and V8's ceilings as the template's budget, in plain words", () => {
    const limit = thrownBy(() =>
      engine.parseAndRenderSync('{% for i in (1..10) %}{% endfor %}', {}, { memoryLimit: 5 }),
    )
    expect(describeTemplateError(limit)).toMatchObject({
      code: 'template_fuel_exhausted',
      message: 'memory alloc limit exceeded',
    })
    expect(describeTemplateError(new RangeError('Maximum call stack size exceeded'))).toEqual({
      code: 'template_fuel_exhausted',
      message: 'templates nest too deeply (a partial rendering itself?)',
    })
    expect(describeTemplateError(new RangeError('Invalid array length'))).toMatchObject({
      code: 'template_fuel_exhausted',
    })
  })

  it('says a missing partial plainly', () => {
    const missing = thrownBy(() => new Liquid({ templates: {} }).parseAndRenderSync('{% render "row" %}'))
    expect(describeTemplateError(missing)).toMatchObject({
      code: 'template_runtime_error',
      message: 'partial "row" not found',
    })
  })
})
