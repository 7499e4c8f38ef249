import { ACADEMIC_THEME } from './academic-theme.ts'
import { BASE_CSS } from './base-css.ts'
import { DEFAULT_THEME } from './default-theme.ts'
import { GITHUB_THEME } from './github-theme.ts'
import { MINIMAL_THEME } from './minimal-theme.ts'

export const MARKDOWN_THEMES = ['default', 'github', 'academic', 'minimal', 'none'] as const
export type MarkdownTheme = (typeof MARKDOWN_THEMES)[number]

const THEMES: Record<Exclude<MarkdownTheme, 'none'>, string> = {
  default: DEFAULT_THEME,
  github: GITHUB_THEME,
  academic: ACADEMIC_THEME,
  minimal: MINIMAL_THEME,
}

/** The stylesheet of a theme; `none` has none, so the page is styled by `css` alone. */
export function themeCss(theme: MarkdownTheme): string {
  return theme === 'none' ? '' : BASE_CSS + THEMES[theme]
}
