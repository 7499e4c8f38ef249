import { renderMarkdown } from './render-markdown.ts'
import { type MarkdownTheme, themeCss } from './themes/index.ts'

export interface MarkdownDocumentOptions {
  markdown: string
  theme?: MarkdownTheme
  /** extra CSS, after the theme's */
  css?: string
  allowRawHtml?: boolean
}

/** A full HTML document: charset, title, the theme's CSS, then `css`, then the Markdown body. */
export function markdownDocument(options: MarkdownDocumentOptions): string {
  const theme = options.theme ?? 'default'
  const { html, title } = renderMarkdown(options.markdown, options.allowRawHtml ?? false)
  const styles = [themeCss(theme), options.css ?? '']
    .filter((css) => css.trim() !== '')
    .map((css) => `<style>${styleText(css)}</style>`)
    .join('\n')
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    title ? `<title>${escapeHtml(title)}</title>` : '',
    styles,
    '</head>',
    `<body class="theme-${theme}">`,
    `<article class="markdown-body">\n${html}</article>`,
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
}

// `</style` inside CSS would end the element and let markup in; `<\/style` means the same to CSS
function styleText(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1')
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
