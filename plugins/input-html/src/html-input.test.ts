import type { InputContext, ProblemError, RenderDocument, RenderWarningCode } from '@docsvc/core/sdk'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { createHtmlInput } from './html-input.ts'
import { HtmlInputSchema } from './html-input-schema.ts'
import { inputHtmlPlugin } from './index.ts'

function fakeContext(data: Record<string, unknown> = {}) {
  const warnings: { code: RenderWarningCode; message: string }[] = []
  const ctx: InputContext = {
    renderId: 'rnd_test',
    workspaceId: 'ws_test',
    test: true,
    signal: new AbortController().signal,
    warn: (code, message) => warnings.push({ code, message }),
    log: () => {},
    data,
    fetch: () => Promise.reject(new Error('no fetch in these tests')),
  }
  return { ctx, warnings }
}

const input = createHtmlInput()

async function resolveHtml(fields: Parameters<typeof input.resolve>[0], data = {}): Promise<string> {
  const doc: RenderDocument = await input.resolve(fields, fakeContext(data).ctx)
  if (doc.kind !== 'html') throw new Error('expected an html document')
  return doc.html
}

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise
  } catch (err) {
    return err as ProblemError
  }
  throw new Error('expected a ProblemError')
}

describe('html input: head', () => {
  it('injects head at the end of an existing <head>', async () => {
    const html = await resolveHtml({
      html: '<!doctype html><html><head><title>T</title></head><body><header>h</header></body></html>',
      head: '<style>p{color:red}</style>',
    })
    expect(html).toBe(
      '<!doctype html><html><head><title>T</title><style>p{color:red}</style></head><body><header>h</header></body></html>',
    )
  })

  it('adds a <head> after <html> when the document has none, and never mistakes <header> for it', async () => {
    const html = await resolveHtml({
      html: '<html lang="en"><body><header>x</header></body></html>',
      head: '<meta name="a">',
    })
    expect(html).toBe('<html lang="en"><head><meta name="a"></head><body><header>x</header></body></html>')
  })

  it('wraps a fragment into a full document', async () => {
    const html = await resolveHtml({ html: '<p>Hello</p>', head: '<style>p{}</style>' })
    expect(html).toBe(
      '<!doctype html><html><head><meta charset="utf-8"><style>p{}</style></head><body><p>Hello</p></body></html>',
    )
  })

  it('keeps an existing <body> when wrapping', async () => {
    const html = await resolveHtml({ html: '<!DOCTYPE html><body class="x"><p>Hi</p></body>', head: '<b>' })
    expect(html).toBe(
      '<!doctype html><html><head><meta charset="utf-8"><b></head><body class="x"><p>Hi</p></body></html>',
    )
  })

  it('leaves the HTML untouched without head, and passes base_url on', async () => {
    const doc = await input.resolve(
      { html: '<p>x</p>', head: null, base_url: 'https://example.com/a/' },
      fakeContext().ctx,
    )
    expect(doc).toEqual({ kind: 'html', html: '<p>x</p>', baseUrl: 'https://example.com/a/' })
  })
})

describe('html input: templating', () => {
  it('renders html and head as Liquid with data', async () => {
    const html = await resolveHtml(
      {
        html: '<html><head></head><body><h1>{{ title }}</h1>{% for i in items %}<li>{{ i.name | upcase }}</li>{% endfor %}</body></html>',
        head: '<title>{{ title }}</title>',
        templating: true,
      },
      { title: 'Invoice 7', items: [{ name: 'a' }, { name: 'b' }] },
    )
    expect(html).toBe(
      '<html><head><title>Invoice 7</title></head><body><h1>Invoice 7</h1><li>A</li><li>B</li></body></html>',
    )
  })

  it('leaves {{ }} literal without templating: true, and warns that data was ignored', async () => {
    const { ctx, warnings } = fakeContext({ title: 'X' })
    const doc = await input.resolve({ html: '<h1>{{ title }}</h1>', templating: false }, ctx)
    expect(doc).toEqual({ kind: 'html', html: '<h1>{{ title }}</h1>' })
    expect(warnings.map((w) => w.code)).toEqual(['feature_unavailable'])
  })

  it('reads only own properties of data', async () => {
    const html = await resolveHtml(
      { html: '[{{ user.constructor }}][{{ user.__proto__ }}][{{ user.name }}]', templating: true },
      { user: { name: 'Ada' } },
    )
    expect(html).toBe('[][][Ada]')
  })

  it('reports a syntax error with its line, column and the offending line', async () => {
    const source = [
      '<html>',
      '<body>',
      '<h1>{{ title }}</h1>',
      '<table>',
      '<tr><td>1</td></tr>',
      '</table>',
      '<p>Total: x{{ total | no_such_filter }}</p>',
      '</body>',
    ].join('\n')
    const err = await problemOf(resolveHtml({ html: source, templating: true }))
    expect(err.code).toBe('template_syntax_error')
    expect(err.extras).toEqual({
      line: 7,
      column: 12,
      excerpt: '<p>Total: x{{ total | no_such_filter }}</p>',
    })
    expect(err.detail).toBe('undefined filter: no_such_filter (line 7, column 12)')
  })

  it('names head in the detail when the error is there', async () => {
    const err = await problemOf(
      resolveHtml({ html: '<p></p>', head: '<style>\n  {% bogus %}', templating: true }),
    )
    expect(err.code).toBe('template_syntax_error')
    expect(err.extras).toEqual({ line: 2, column: 3, excerpt: '  {% bogus %}' })
    expect(err.detail).toBe('head: tag "bogus" not found (line 2, column 3)')
  })

  it('reports an unclosed tag as a syntax error at the tag', async () => {
    const err = await problemOf(resolveHtml({ html: 'a\n b {% if x %} c', templating: true }))
    expect(err.code).toBe('template_syntax_error')
    expect(err.extras).toEqual({ line: 2, column: 4, excerpt: ' b {% if x %} c' })
  })

  it('reports a runtime error with its position (no file system: includes find nothing)', async () => {
    const err = await problemOf(
      resolveHtml({ html: '<p>\n{% include "/etc/passwd" %}</p>', templating: true }),
    )
    expect(err.code).toBe('template_runtime_error')
    expect(err.extras).toEqual({ line: 2, column: 1, excerpt: '{% include "/etc/passwd" %}</p>' })
    expect(err.detail).toContain('partial "/etc/passwd" not found')
  })

  it('ends a runaway loop with template_fuel_exhausted, quickly', async () => {
    const started = Date.now()
    const err = await problemOf(
      resolveHtml({ html: '{% for i in (1..1000000000) %}{{ i }}{% endfor %}', templating: true }),
    )
    expect(err.code).toBe('template_fuel_exhausted')
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('html input: schema and plugin', () => {
  it('accepts the documented fields (null meaning absent) and refuses the rest', () => {
    expect(Value.Check(HtmlInputSchema, { html: '<p>x</p>' })).toBe(true)
    expect(
      Value.Check(HtmlInputSchema, { html: '<p>x</p>', head: null, templating: null, base_url: null }),
    ).toBe(true)
    expect(Value.Check(HtmlInputSchema, { head: '<b>' })).toBe(false)
    expect(Value.Check(HtmlInputSchema, { html: '' })).toBe(false)
    expect(Value.Check(HtmlInputSchema, { html: '<p>x</p>', templating: 'yes' })).toBe(false)
    expect(Value.Check(HtmlInputSchema, { html: '<p>x</p>', base_url: 'file:///tmp/' })).toBe(false)
    expect(Value.Check(HtmlInputSchema, { html: '<p>x</p>', css: 'p{}' })).toBe(false)
  })

  it('registers the html input, the liquid template engine and the html document builder', () => {
    const added: Record<string, string[]> = {}
    const registries = new Proxy(
      {},
      {
        get: (_, point: string) => ({
          add: (key: string) => {
            added[point] = [...(added[point] ?? []), key]
          },
        }),
      },
    )
    inputHtmlPlugin.register({ registries } as never)
    expect(added).toEqual(inputHtmlPlugin.provides)
    expect(added).toEqual({ inputs: ['html'], templateEngines: ['liquid'], documentBuilders: ['html'] })
  })
})
