import type { FieldProblem } from '../kernel/problem-error.ts'

// A destination's `path_template` (SPEC 2.8): literal text and Liquid-like placeholders such as
// `{{ render.id }}` or `{{ file.index }}`. The one module that both checks a template at write
// time and expands it for an upload, so what was accepted is exactly what is expanded: the
// literal parts are checked once, and every value is made path-safe on its own, so no render
// data (a reference, a file name) can add a segment, leave the destination or hide a character.

/** The placeholders a template may use, with what each expands to. */
export const PATH_PLACEHOLDERS = {
  'render.id': 'the render id (rnd_...)',
  'render.reference': "the render's `reference`, or `no-reference`",
  'template.id': 'the template id (tpl_...), or `no-template` for renders of HTML, a URL or Markdown',
  'date.year': 'the year the render was created (UTC), four digits',
  'date.month': 'the month, two digits',
  'date.day': 'the day of the month, two digits',
  'file.index': "the file's position in the render's files, from 0",
  'file.name': "the file's name without its extension",
  'file.ext': "the file's extension without the dot (pdf, png)",
} as const

export type PathPlaceholder = keyof typeof PATH_PLACEHOLDERS
export type PathValues = Record<PathPlaceholder, string>

export const DEFAULT_PATH_TEMPLATE = '{{ render.id }}/{{ file.name }}.{{ file.ext }}'
export const MAX_PATH_TEMPLATE_LENGTH = 512
/** a value longer than this is cut: one reference cannot push the path past a provider's limit */
export const MAX_VALUE_LENGTH = 120

type Part = { literal: string } | { placeholder: PathPlaceholder }

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\\]/
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'g')

function isPlaceholder(name: string): name is PathPlaceholder {
  return Object.hasOwn(PATH_PLACEHOLDERS, name)
}

/** The template's parts, or the problems that make it unsafe or unknown (paths under `pointer`). */
export function parsePathTemplate(
  template: string,
  pointer = '/path_template',
): { parts: Part[]; problems: FieldProblem[] } {
  const parts: Part[] = []
  const problems: FieldProblem[] = []
  const problem = (code: string, message: string) => problems.push({ path: pointer, code, message })
  let at = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > at) parts.push({ literal: template.slice(at, match.index) })
    const name = match[1]!
    if (isPlaceholder(name)) parts.push({ placeholder: name })
    else
      problem(
        'unknown_placeholder',
        `{{ ${name.slice(0, 60)} }} is not a placeholder; use ${Object.keys(PATH_PLACEHOLDERS).join(', ')}`,
      )
    at = match.index + match[0].length
  }
  if (at < template.length) parts.push({ literal: template.slice(at) })

  const literals = parts.map((p) => ('literal' in p ? p.literal : 'x')).join('')
  if (/\{\{|\}\}/.test(literals))
    problem('unclosed_placeholder', 'has a {{ or }} that is not part of a placeholder')
  if (UNSAFE_CHARACTER.test(template))
    problem('unsafe_path', 'must not contain control characters or backslashes')
  if (template.startsWith('/')) problem('unsafe_path', 'must be relative: it must not start with /')
  // each placeholder stands for a non-empty, dot-free-at-the-edges value, so the segments the
  // literals make are the segments every expansion has
  const segments = literals.split('/')
  // an absolute path's empty first segment is told as "must be relative" above
  for (const segment of template.startsWith('/') ? segments.slice(1) : segments) {
    if (segment === '')
      problem('unsafe_path', 'must not have an empty segment (// or a leading or trailing /)')
    else if (segment === '.' || segment === '..')
      problem('unsafe_path', 'must not have a "." or ".." segment')
  }
  if (
    !parts.some(
      (p) => 'placeholder' in p && (p.placeholder === 'file.index' || p.placeholder === 'file.name'),
    )
  )
    problem(
      'missing_file_placeholder',
      'must use {{ file.index }} or {{ file.name }}, or the files of one render overwrite each other',
    )
  return { parts, problems: dedupe(problems) }
}

/** The problems of a template (empty when it may be stored). */
export function pathTemplateProblems(template: string, pointer = '/path_template'): FieldProblem[] {
  return parsePathTemplate(template, pointer).problems
}

/**
 * The object path for these values. The template must have passed pathTemplateProblems; a
 * value is made safe first: no `/`, backslash or control character, no leading dot, never
 * empty, at most MAX_VALUE_LENGTH characters.
 */
export function expandPathTemplate(template: string, values: PathValues): string {
  const { parts, problems } = parsePathTemplate(template)
  if (problems.length > 0) throw new Error(`path template not valid: ${problems[0]!.message}`)
  return parts.map((p) => ('literal' in p ? p.literal : safeValue(values[p.placeholder]))).join('')
}

/** One value as one piece of one segment. */
export function safeValue(value: string): string {
  const cleaned = [...value.toWellFormed().replace(UNSAFE_CHARACTERS, '_').replace(/\//g, '_')]
    .slice(0, MAX_VALUE_LENGTH)
    .join('')
    // a leading dot could make `..` next to a literal dot, or a hidden file
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length))
  return cleaned === '' ? '_' : cleaned
}

function dedupe(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const key = `${p.code}:${p.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
