import MarkdownIt, { type MarkdownIt as MarkdownParser, type Token } from 'markdown-it'

export interface RenderedMarkdown {
  /** the body HTML */
  html: string
  /** text of the first level-1 heading, for <title> (and so the PDF's title) */
  title: string | undefined
}

function createParser(allowRawHtml: boolean): MarkdownParser {
  // 'default' preset: CommonMark plus tables and strikethrough; links are checked by
  // markdown-it's validateLink (no javascript:, vbscript:, file: or non-image data:)
  const md = new MarkdownIt('default', { html: true, linkify: false, typographer: true })
  if (!allowRawHtml) {
    // parsed as HTML but rendered as nothing: tags vanish, surrounding text stays as text
    md.renderer.rules.html_block = () => ''
    md.renderer.rules.html_inline = () => ''
  }
  return md
}

const withRawHtml = createParser(true)
const withoutRawHtml = createParser(false)

/** Markdown to body HTML; raw HTML in the source is dropped unless `allowRawHtml`. */
export function renderMarkdown(markdown: string, allowRawHtml: boolean): RenderedMarkdown {
  const md = allowRawHtml ? withRawHtml : withoutRawHtml
  const env = {}
  const tokens = md.parse(markdown, env)
  return { html: md.renderer.render(tokens, md.options, env), title: firstTitle(tokens) }
}

function firstTitle(tokens: Token[]): string | undefined {
  const at = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1')
  const inline = at === -1 ? undefined : tokens[at + 1]
  const text = (inline?.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('')
    .trim()
  return text || undefined
}
