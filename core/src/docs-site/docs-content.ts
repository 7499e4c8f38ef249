import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The documentation site's sources: Markdown files kept in the repository next to the other docs,
 * so the same text reads on GitHub and is served by the installation (the Docker image copies
 * these two folders). Guides are `docs/guides/NN-slug.md`, ordered by NN and served under their
 * slug; error pages are `docs/errors/<code>.md`, one per problem code.
 */
export const DOCS_ROOT = fileURLToPath(new URL('../../../docs/', import.meta.url))

export interface Guide {
  /** the file's name in docs/guides */
  file: string
  slug: string
  /** the text of the first `# ` heading */
  title: string
  markdown: string
}

/** `02-templates.md` → `templates`: the order prefix is for the file listing, not for URLs. */
export function guideSlug(fileName: string): string {
  return fileName.replace(/\.md$/, '').replace(/^\d+-/, '')
}

function titleOf(markdown: string, fallback: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? fallback
}

function markdownFiles(folder: string): string[] {
  const dir = `${DOCS_ROOT}${folder}`
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
}

export function loadGuides(): Guide[] {
  return markdownFiles('guides').map((name) => {
    const markdown = readFileSync(`${DOCS_ROOT}guides/${name}`, 'utf8')
    const slug = guideSlug(name)
    return { file: name, slug, title: titleOf(markdown, slug), markdown }
  })
}

/** Error page bodies by problem code. */
export function loadErrorPages(): Map<string, string> {
  return new Map(
    markdownFiles('errors').map((name) => [
      name.replace(/\.md$/, ''),
      readFileSync(`${DOCS_ROOT}errors/${name}`, 'utf8'),
    ]),
  )
}
