import type { ProblemError } from '@docsvc/core/sdk'
import { fakeInputContext, loadTestPlugins, standardPlugin } from '@docsvc/core/testing'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { inputMarkdownPlugin } from './index.ts'
import { createMarkdownInput } from './markdown-input.ts'
import { MarkdownInputSchema } from './markdown-input-schema.ts'

const fakeContext = fakeInputContext

// templating runs on the installation's Liquid engine, input-html's, loaded through the real loader
const { registries } = await loadTestPlugins({ plugins: [standardPlugin('input-html'), inputMarkdownPlugin] })
const input = createMarkdownInput(registries.templateEngines)

async function render(fields: Parameters<typeof input.resolve>[0], data = {}): Promise<string> {
  const doc = await input.resolve(fields, fakeContext(data).ctx)
  if (doc.kind !== 'html') throw new Error('expected an html document')
  return doc.html
}

/** The CSS of the document's <style> elements, in order. */
const stylesOf = (html: string) => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '')

describe('markdown input: document and themes', () => {
  it('makes a full document with charset, title and the default theme', async () => {
    const html = await render({ markdown: '# Quarterly *report*\n\nHello.' })
    expect(html).toMatch(/^<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">/)
    expect(html).toContain('<title>Quarterly report</title>')
    expect(html).toContain('<body class="theme-default">')
    expect(html).toContain('<h1>Quarterly <em>report</em></h1>')
    const [theme] = stylesOf(html)
    expect(theme).toContain('font-family: Inter')
    expect(theme).toContain('print-color-adjust: exact')
  })

  it.each([
    ['github', 'color: #0969da'],
    ['academic', 'content: counter(h2) "." counter(h3)'],
    ['minimal', 'font-family: system-ui'],
    ['default', 'font-family: Inter'],
  ] as const)('puts the %s theme CSS in the document', async (theme, marker) => {
    const html = await render({ markdown: 'x', theme })
    const styles = stylesOf(html)
    expect(styles).toHaveLength(1)
    expect(styles[0]).toContain(marker)
    expect(html).toContain(`<body class="theme-${theme}">`)
  })

  it('has no CSS at all with theme none, and puts css after the theme', async () => {
    expect(stylesOf(await render({ markdown: 'x', theme: 'none' }))).toEqual([])
    expect(stylesOf(await render({ markdown: 'x', theme: 'none', css: 'p { color: red }' }))).toEqual([
      'p { color: red }',
    ])
    const styles = stylesOf(await render({ markdown: 'x', theme: 'github', css: 'h1 { color: teal }' }))
    expect(styles).toHaveLength(2)
    expect(styles[1]).toBe('h1 { color: teal }')
  })

  it('keeps css from closing its <style> element', async () => {
    const html = await render({ markdown: 'x', theme: 'none', css: 'p{}</style><script>alert(1)</script>' })
    // the whole text stays inside the one <style> element, where <script> is inert text
    expect(stylesOf(html)).toEqual(['p{}<\\/style><script>alert(1)</script>'])
    expect(html.match(/<\/style>/g)).toHaveLength(1)
  })

  it('renders tables with alignment, and typographic quotes', async () => {
    const html = await render({
      markdown: '| Item | Price |\n|:-----|------:|\n| Tea  | 3.50 |\n\n"Quoted" -- text',
    })
    expect(html).toContain('<table>\n<thead>\n<tr>\n<th style="text-align:left">Item</th>')
    expect(html).toContain('<td style="text-align:right">3.50</td>')
    expect(html).toContain('<p>“Quoted” – text</p>')
  })

  it('does not linkify bare addresses and drops javascript: links', async () => {
    const html = await render({ markdown: 'see www.example.com and [x](javascript:alert(1))' })
    expect(html).not.toMatch(/<a[\s>]/)
    expect(html).toContain('<p>see www.example.com and [x](javascript:alert(1))</p>')
  })
})

describe('markdown input: raw HTML', () => {
  const markdown = [
    'Hello <b>bold</b> and <img src="x" onerror="alert(1)">.',
    '',
    '<script>alert(document.cookie)</script>',
    '',
    '<div onclick="x()">block</div>',
    '',
    'after',
  ].join('\n')

  it('drops raw HTML by default: no script, no event handler reaches the page', async () => {
    const html = await render({ markdown })
    expect(html).not.toMatch(/<script|onerror|onclick|<img|<b>|<div/)
    expect(html).toContain('<p>Hello bold and .</p>')
    expect(html).toContain('<p>after</p>')
    expect(await render({ markdown, allow_raw_html: null })).toBe(html)
  })

  it('keeps raw HTML with allow_raw_html', async () => {
    const html = await render({ markdown, allow_raw_html: true })
    expect(html).toContain('<img src="x" onerror="alert(1)">')
    expect(html).toContain('<script>alert(document.cookie)</script>')
    expect(html).toContain('<div onclick="x()">block</div>')
  })
})

describe('markdown input: templating', () => {
  it('renders the Markdown as Liquid with data before parsing', async () => {
    const html = await render(
      {
        markdown: '# {{ title }}\n\n{% for r in rows %}- {{ r.name }}: {{ r.qty }}\n{% endfor %}',
        templating: true,
      },
      {
        title: 'Order 12',
        rows: [
          { name: 'Tea', qty: 2 },
          { name: 'Cake', qty: 1 },
        ],
      },
    )
    expect(html).toContain('<title>Order 12</title>')
    expect(html).toContain('<h1>Order 12</h1>')
    expect(html).toContain('<ul>\n<li>Tea: 2</li>\n<li>Cake: 1</li>\n</ul>')
  })

  it('leaves {{ }} literal without templating, and warns that data was ignored', async () => {
    const { ctx, warnings } = fakeContext({ title: 'X' })
    const doc = await input.resolve({ markdown: 'Hi {{ title }}' }, ctx)
    expect(doc.kind === 'html' && doc.html).toContain('<p>Hi {{ title }}</p>')
    expect(warnings).toEqual(['feature_unavailable'])
  })

  it('reports a syntax error at its line and column in the Markdown', async () => {
    const markdown = '# Title\n\nSome text.\n\n| a | b |\n|---|---|\n| 1 | {{ x | nope }} |\n'
    const err = await input.resolve({ markdown, templating: true }, fakeContext().ctx).then(
      () => undefined,
      (e: ProblemError) => e,
    )
    expect(err?.code).toBe('template_syntax_error')
    expect(err?.extras).toEqual({ line: 7, column: 7, excerpt: '| 1 | {{ x | nope }} |' })
  })

  it("formats with the output's locale when a filter names none", async () => {
    const { ctx } = fakeContext({ total: 1234.5 })
    const doc = await input.resolve(
      { markdown: "{{ total | money: 'EUR' }}", templating: true },
      { ...ctx, locale: 'de-DE' },
    )
    expect(doc.kind === 'html' && doc.html).toContain('<p>1.234,50\u00a0€</p>')
    const unknown = fakeContext({ total: 1 })
    await input.resolve(
      { markdown: "{{ total | money: 'EUR' }}", templating: true },
      { ...unknown.ctx, locale: 'zz-QQ' },
    )
    expect(unknown.warnings).toContain('locale_unsupported')
  })

  it('refuses templating with service_unavailable where no plugin lends a Liquid engine', async () => {
    const alone = await loadTestPlugins({ plugins: [inputMarkdownPlugin] })
    const markdown = alone.registries.inputs.get('markdown')!
    const err = await markdown
      .resolve({ markdown: '{{ x }}', templating: true } as never, fakeContext().ctx)
      .then(
        () => undefined,
        (e: ProblemError) => e,
      )
    expect(err?.code).toBe('service_unavailable')
    expect(err?.message).toBe('This installation has no template engine "liquid": no plugin registered it.')
    const plain = await markdown.resolve({ markdown: '# Plain' } as never, fakeContext().ctx)
    expect(plain.kind === 'html' && plain.html).toContain('<h1>Plain</h1>')
  })
})

describe('markdown input: schema and plugin', () => {
  it('accepts the documented fields and refuses the rest', () => {
    expect(Value.Check(MarkdownInputSchema, { markdown: '# x' })).toBe(true)
    expect(
      Value.Check(MarkdownInputSchema, {
        markdown: '# x',
        css: null,
        theme: null,
        allow_raw_html: null,
        templating: null,
      }),
    ).toBe(true)
    expect(Value.Check(MarkdownInputSchema, { markdown: '# x', theme: 'academic', css: 'p{}' })).toBe(true)
    expect(Value.Check(MarkdownInputSchema, {})).toBe(false)
    expect(Value.Check(MarkdownInputSchema, { markdown: '# x', theme: 'dark' })).toBe(false)
    expect(Value.Check(MarkdownInputSchema, { markdown: '# x', head: '<b>' })).toBe(false)
    expect(Value.Check(MarkdownInputSchema, { markdown: '# x', allow_raw_html: 'true' })).toBe(false)
  })

  it('registers the markdown input and the markdown document builder', () => {
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
    inputMarkdownPlugin.register({ registries } as never)
    expect(added).toEqual(inputMarkdownPlugin.provides)
    expect(added).toEqual({ inputs: ['markdown'], documentBuilders: ['markdown'] })
  })
})
