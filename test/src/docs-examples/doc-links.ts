import { existsSync } from 'node:fs'
import path from 'node:path'

/** The links of a Markdown page to other Markdown files that do not exist, relative to `folder`. */
export function brokenLinks(markdown: string, folder: string): string[] {
  return [...markdown.matchAll(/\]\(([^)#\s:]+\.md)(?:#[^)]*)?\)/g)]
    .map((match) => match[1] as string)
    .filter((href) => !existsSync(path.join(folder, href)))
}
