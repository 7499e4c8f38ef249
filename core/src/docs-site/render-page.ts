import MarkdownIt from 'markdown-it'
import { escapeHtml } from '../kernel/escape-html.ts'
import { guideSlug } from './docs-content.ts'

// Raw HTML in the Markdown is shown as text: the pages carry nothing but what Markdown makes.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false })

// A link to another Markdown file of the docs (`03-pdf-options.md`, `../errors/not_found.md`)
// points at its page: the repository's relative paths mirror the site's (docs/guides/x.md is
// /docs/guides/x), so only the extension and the order prefix go.
const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]
  const href = String(token?.attrGet('href') ?? '')
  if (token && href && !/^[a-z]+:/i.test(href)) {
    const [path = '', hash] = href.split('#')
    if (path.endsWith('.md')) {
      const parts = path.split('/')
      parts[parts.length - 1] = guideSlug(parts.at(-1) as string)
      token.attrSet('href', parts.join('/') + (hash ? `#${hash}` : ''))
    }
  }
  return defaultLinkOpen(tokens, idx, options, env, self)
}

export function markdownToHtml(markdown: string): string {
  return md.render(markdown)
}

export interface NavLink {
  href: string
  label: string
}

/**
 * One page of the site: no script, no external asset, one stylesheet served by the site itself,
 * a skip link and landmarks for screen readers.
 */
export function pageHtml(options: { title: string; nav: NavLink[]; current: string; body: string }): string {
  const links = options.nav
    .map(
      (link) =>
        `<li><a href="${link.href}"${link.href === options.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a></li>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · docsvc</title>
<link rel="stylesheet" href="/docs/site.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<nav aria-label="Documentation"><p><a href="/docs">docsvc documentation</a></p><ul>${links}</ul></nav>
<main id="main">
${options.body}
</main>
</body>
</html>
`
}
