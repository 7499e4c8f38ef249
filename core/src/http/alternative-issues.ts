/** One ajv error, as much of it as the formatter reads. */
export interface AjvIssue {
  instancePath: string
  schemaPath?: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

/** A value that is none of a field's alternatives: the values it may take and the other kinds. */
export interface ChoiceParams {
  allowedValues: unknown[]
  /** JSON types another alternative accepts (`null`, `object`), named after the values */
  otherTypes: string[]
}

const SHALLOW = new Set(['type', 'const', 'enum'])

/**
 * ajv reports a union (`anyOf`, TypeBox's `Union`) as one error per alternative plus "must match
 * a schema in anyOf": for `format: "a4"` that is "must be equal to constant" once per page size.
 * This folds each union's errors into what a user can act on: when the value reached inside an
 * alternative (an object of the right kind with a bad field), that alternative's errors; else
 * one `enum` error at the field listing every value and kind the union accepts.
 */
export function collapseAlternatives(issues: AjvIssue[]): AjvIssue[] {
  let out = issues
  // innermost unions first: a folded inner union is one alternative of the outer one
  const unions = issues
    .filter((i) => isUnion(i) && i.schemaPath)
    .sort((a, b) => b.schemaPath!.length - a.schemaPath!.length)
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`
    const members = out.filter((i) => i !== union && i.schemaPath?.startsWith(prefix))
    const branches = new Map<string, AjvIssue[]>()
    for (const issue of members) {
      const branch = issue.schemaPath!.slice(prefix.length).split('/')[0]!
      branches.set(branch, [...(branches.get(branch) ?? []), issue])
    }
    const specific = [...branches.values()].filter((b) =>
      b.some((i) => i.instancePath !== union.instancePath || !SHALLOW.has(i.keyword)),
    )
    const kept = specific.length > 0 ? specific.flat() : [choiceIssue(union, [...branches.values()])]
    const dropped = new Set([union, ...members])
    const at = out.indexOf(union)
    out = [...out.slice(0, at).filter((i) => !dropped.has(i)), ...kept, ...out.slice(at + 1)]
  }
  return out
}

function isUnion(issue: AjvIssue): boolean {
  // a oneOf that failed because two alternatives matched is not a wrong value: leave it
  return issue.keyword === 'anyOf' || (issue.keyword === 'oneOf' && issue.params.passingSchemas == null)
}

function choiceIssue(union: AjvIssue, branches: AjvIssue[][]): AjvIssue {
  const allowedValues: unknown[] = []
  const otherTypes: string[] = []
  for (const branch of branches) {
    const values = branch.flatMap(valuesOf)
    // an inner union folded earlier brings the kinds it accepts besides its values
    otherTypes.push(...branch.flatMap((i) => (i.params.otherTypes as string[] | undefined) ?? []))
    if (values.length > 0) allowedValues.push(...values)
    else otherTypes.push(...branch.flatMap(typesOf))
  }
  const params: ChoiceParams = { allowedValues: unique(allowedValues), otherTypes: unique(otherTypes) }
  return {
    instancePath: union.instancePath,
    ...(union.schemaPath !== undefined ? { schemaPath: union.schemaPath } : {}),
    keyword: 'enum',
    params: { ...params },
  }
}

function valuesOf(issue: AjvIssue): unknown[] {
  if (issue.keyword === 'const') return [issue.params.allowedValue]
  if (issue.keyword === 'enum') return (issue.params.allowedValues as unknown[]) ?? []
  return []
}

function typesOf(issue: AjvIssue): string[] {
  if (issue.keyword !== 'type') return []
  const type = issue.params.type
  return Array.isArray(type) ? type.map(String) : [String(type)]
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)]
}
