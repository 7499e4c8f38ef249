import { type FieldProblem, validationProblem } from '../kernel/problem-error.ts'
import {
  PLAN_FEATURE_KEYS,
  PLAN_LIMIT_KEYS,
  PLAN_LIMIT_MINIMUMS,
  type Plan,
  type PlanFeatures,
  type PlanLimits,
} from './plan.ts'

/** An operator's edit of a plan; values are unknown until checked (they come from a CLI or JSON). */
export interface PlanChanges {
  name?: unknown
  features?: Record<string, unknown>
  limits?: Record<string, unknown>
}

const MAX_NAME_LENGTH = 100

/**
 * Applies changes to a copy of the plan, or throws one validation_error naming every bad key
 * or value (JSON Pointer paths such as `/limits/max_pages`).
 */
export function applyPlanChanges(
  plan: Plan,
  changes: PlanChanges,
  featureKeys: readonly string[] = PLAN_FEATURE_KEYS,
): Plan {
  const problems: FieldProblem[] = []
  const next: Plan = { ...plan, features: { ...plan.features }, limits: { ...plan.limits } }

  if (changes.name !== undefined) {
    const name = typeof changes.name === 'string' ? changes.name.trim() : ''
    if (name === '' || name.length > MAX_NAME_LENGTH) {
      problems.push({
        path: '/name',
        code: 'invalid',
        message: `name must be 1 to ${MAX_NAME_LENGTH} characters`,
      })
    } else next.name = name
  }

  for (const [key, value] of Object.entries(changes.features ?? {})) {
    const path = `/features/${key}`
    if (!featureKeys.includes(key)) {
      problems.push({
        path,
        code: 'unknown_key',
        message: `unknown feature ${key}; features: ${featureKeys.join(', ')}`,
      })
    } else if (typeof value !== 'boolean') {
      problems.push({
        path,
        code: 'invalid_type',
        message: `feature ${key} must be true or false, not ${show(value)}`,
      })
    } else next.features[key as keyof PlanFeatures] = value
  }

  for (const [key, value] of Object.entries(changes.limits ?? {})) {
    const path = `/limits/${key}`
    if (!isKeyOf(PLAN_LIMIT_KEYS, key)) {
      problems.push({
        path,
        code: 'unknown_key',
        message: `unknown limit ${key}; limits: ${PLAN_LIMIT_KEYS.join(', ')}`,
      })
      continue
    }
    const minimum = PLAN_LIMIT_MINIMUMS[key]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
      problems.push({
        path,
        code: 'invalid_number',
        message: `limit ${key} must be a whole number of at least ${minimum}, not ${show(value)}`,
      })
    } else next.limits[key as keyof PlanLimits] = value
  }

  if (problems.length > 0) {
    throw validationProblem(problems, problems.map((p) => p.message).join('; '))
  }
  return next
}

function isKeyOf<K extends string>(keys: readonly K[], key: string): key is K {
  return (keys as readonly string[]).includes(key)
}

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value)
}
