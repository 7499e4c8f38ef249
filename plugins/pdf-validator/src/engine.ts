import type { ConformanceProfile, Finding } from '@docsvc/core/sdk'
import { lineage, type ModelObject, type ModelTypes, propsOf } from './model/model-object.ts'
import { type Compiled, compileExpression } from './profile/compile-test.ts'
import { type ProfileRule, profileRules } from './profile/load-profile.ts'

// Runs a profile's rules over the model: each rule's test against every object of its type.
// A rule is claimed (listed in rulesChecked) only when the model builds its object type with
// every property its test reads; the others are not evaluated and not claimed.

/** findings kept per rule: one broken rule on every glyph of a book would flood the report */
export const MAX_FINDINGS_PER_RULE = 20

interface CheckedRule {
  rule: ProfileRule
  test: Compiled
  args: (Compiled | undefined)[]
}

// per model (its declared types decide what is claimed), per profile
const compiledProfiles = new WeakMap<ModelTypes, Map<ConformanceProfile, CheckedRule[]>>()

/** The rules of a profile the model can check, compiled once per thread. */
export function checkedRules(profile: ConformanceProfile, types: ModelTypes): CheckedRule[] {
  const forModel = compiledProfiles.get(types) ?? new Map<ConformanceProfile, CheckedRule[]>()
  compiledProfiles.set(types, forModel)
  const known = forModel.get(profile)
  if (known) return known
  const checked: CheckedRule[] = []
  for (const rule of profileRules(profile)) {
    if (!types[rule.object]) continue
    const test = compileExpression(rule.test)
    const props = propsOf(types, rule.object)
    if (!test.names.every((n) => props.has(n))) continue
    const args = rule.arguments.map((a) => {
      try {
        const c = compileExpression(a)
        return c.names.every((n) => props.has(n)) ? c : undefined
      } catch {
        return undefined
      }
    })
    checked.push({ rule, test, args })
  }
  forModel.set(profile, checked)
  return checked
}

function show(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

function message(c: CheckedRule, obj: ModelObject): string {
  return c.rule.message.replace(/%(\d+)/g, (whole, n: string) => {
    const arg = c.args[Number(n) - 1]
    if (!arg) return whole
    try {
      return show(arg.run(obj.props))
    } catch {
      return whole
    }
  })
}

export interface Evaluation {
  findings: Finding[]
  rulesChecked: string[]
}

export function evaluate(
  profile: ConformanceProfile,
  types: ModelTypes,
  objects: readonly ModelObject[],
): Evaluation {
  const rules = checkedRules(profile, types)
  const byType = new Map<string, CheckedRule[]>()
  for (const c of rules) byType.set(c.rule.object, [...(byType.get(c.rule.object) ?? []), c])
  const findings: Finding[] = []
  const counts = new Map<string, number>()
  // rules on a type some object of which the model could not read are not claimed for this file
  const unclaimed = new Set<string>()
  const unsettled = (obj: ModelObject, c: CheckedRule) =>
    obj.unmodelled === true || (obj.unknown?.some((name) => c.test.names.includes(name)) ?? false)
  for (const obj of objects) {
    if (!obj.unmodelled && !obj.unknown?.length) continue
    for (const type of lineage(types, obj.type))
      for (const c of byType.get(type) ?? []) if (unsettled(obj, c)) unclaimed.add(c.rule.id)
  }
  for (const obj of objects) {
    if (obj.unmodelled) continue
    for (const type of lineage(types, obj.type)) {
      for (const c of byType.get(type) ?? []) {
        if (unsettled(obj, c)) continue
        let passed: boolean
        try {
          passed = c.test.run(obj.props) === true
        } catch {
          // a test that cannot be evaluated on this object is not passed
          passed = false
        }
        if (passed) continue
        const n = (counts.get(c.rule.id) ?? 0) + 1
        counts.set(c.rule.id, n)
        if (n > MAX_FINDINGS_PER_RULE) continue
        findings.push({
          ruleId: c.rule.id,
          severity: 'error',
          clause: c.rule.clause,
          message: message(c, obj),
          object: obj.context,
          ...(obj.page ? { page: obj.page, location: `page ${obj.page}` } : {}),
        })
      }
    }
  }
  return { findings, rulesChecked: rules.map((c) => c.rule.id).filter((id) => !unclaimed.has(id)) }
}
