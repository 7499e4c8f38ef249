import type { TSchema } from 'typebox'
import { type FieldStatus, fieldStatus, modelFields, PROFILE_IDS } from '../model/profile-matrix.ts'

// docs/einvoice-model.md's table, made from the model schema and the field matrix (its test
// fails when the document is stale).

export const GENERATED_START = '<!-- generated from plugins/einvoice/src/model/: do not edit by hand -->'
export const GENERATED_END = '<!-- end of generated part -->'

const MARK: Record<FieldStatus, string> = {
  required: 'R',
  optional: 'O',
  computing_only: 'C',
  not_carried: '–',
}

function kind(schema: TSchema): string {
  const s = schema as Record<string, unknown>
  if (Array.isArray(s.anyOf)) return 'decimal'
  if (s.type === 'array') return 'list'
  if (s.type === 'object') return 'group'
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^[0-9]{4}-')) return 'date'
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^[A-Za-z0-9')) return 'code'
  return 'text'
}

const cell = (text: string) => text.replace(/\|/g, '\\|')

/** One row per model field: path, term, what it is, its kind, and R/O/C/– per profile. */
export function modelTableMarkdown(): string {
  const header = `| field | term | meaning | kind | ${PROFILE_IDS.join(' | ')} |`
  const rule = `| --- | --- | --- | --- | ${PROFILE_IDS.map(() => ':-:').join(' | ')} |`
  const rows = modelFields().map((f) => {
    const meaning = f.description.startsWith(`${f.term} `)
      ? f.description.slice(f.term.length + 1)
      : f.description
    const marks = PROFILE_IDS.map((p) => MARK[fieldStatus(f.path, p, f.schemaRequired)])
    return `| \`${f.path}\` | ${f.term} | ${cell(meaning)} | ${kind(f.schema)} | ${marks.join(' | ')} |`
  })
  return [header, rule, ...rows].join('\n')
}

/** Replaces the generated part of a document (between the markers) with `table`. */
export function withGeneratedTable(document: string, table: string): string {
  const start = document.indexOf(GENERATED_START)
  const end = document.indexOf(GENERATED_END)
  if (start < 0 || end < start)
    throw new Error('the document has no generated part (its markers are missing)')
  return `${document.slice(0, start + GENERATED_START.length)}\n\n${table}\n\n${document.slice(end)}`
}
