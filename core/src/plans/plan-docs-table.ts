import { PLAN_FEATURE_TITLES, PLAN_LIMIT_KEYS, type Plan } from './plan.ts'

// The plans as Markdown tables (features × plans, limits × plans), made from plan data: the
// defaults for docs/plans.md (its generated part is checked against default-plans.ts by
// plan-docs-table.test.ts), an installation's edited rows for `docsvc plan list --markdown`.

/** Start and end of the generated part of docs/plans.md. */
export const GENERATED_START = '<!-- generated from core/src/plans/default-plans.ts: do not edit by hand -->'
export const GENERATED_END = '<!-- end of generated part -->'

const MB = 1024 * 1024

/** Bytes as people read a body limit: whole megabytes where they are whole. */
function limitValue(key: string, value: number): string {
  if (key === 'max_body_bytes' && value % MB === 0) return `${value / MB} MB`
  return value.toLocaleString('en-US')
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`
}

/**
 * Two tables for the plans in position order. `titles` names features a plugin declared (the
 * SPEC features have theirs); features missing from a plan's data show as "no", as the gate
 * reads them.
 */
export function planTablesMarkdown(plans: readonly Plan[], titles: Record<string, string> = {}): string {
  const ordered = [...plans].sort((a, b) => a.position - b.position)
  const header = (first: string) => [
    row([first, ...ordered.map((p) => `${p.name} (\`${p.id}\`)`)]),
    row(['---', ...ordered.map(() => '---')]),
  ]
  const named: Record<string, string> = { ...PLAN_FEATURE_TITLES, ...titles }
  const featureKeys = [
    ...new Set([...Object.keys(PLAN_FEATURE_TITLES), ...ordered.flatMap((p) => Object.keys(p.features))]),
  ]
  const features = featureKeys.map((key) => {
    const on = ordered.map((p) =>
      (p.features as unknown as Record<string, unknown>)[key] === true ? 'yes' : 'no',
    )
    return row([`${named[key] ?? key} (\`${key}\`)`, ...on])
  })
  const limits = PLAN_LIMIT_KEYS.map((key) =>
    row([`\`${key}\``, ...ordered.map((p) => limitValue(key, p.limits[key]))]),
  )
  return [...header('feature'), ...features, '', ...header('limit'), ...limits].join('\n')
}

/** Replaces the generated part of a document (between the markers) with `tables`. */
export function withGeneratedTables(document: string, tables: string): string {
  const start = document.indexOf(GENERATED_START)
  const end = document.indexOf(GENERATED_END)
  if (start < 0 || end < start)
    throw new Error('the document has no generated part (its markers are missing)')
  return `${document.slice(0, start + GENERATED_START.length)}\n\n${tables}\n\n${document.slice(end)}`
}
