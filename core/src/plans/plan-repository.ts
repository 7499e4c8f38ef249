import type { Db } from '../db/database.ts'
import { fromJson, nowIso, toJson } from '../db/json-columns.ts'
import { DEFAULT_PLANS } from './default-plans.ts'
import { PLAN_LIMIT_MINIMUMS, type Plan, type PlanFeatures, type PlanLimits } from './plan.ts'
import type { PlanTable } from './plan-tables.ts'

function toPlan(row: PlanTable): Plan {
  // a limit a later release added is missing from rows stored before it: the default plan of
  // the same id gives it, else the limit's minimum (seedDefaults never rewrites a stored row)
  const fallback = DEFAULT_PLANS.find((p) => p.id === row.id)?.limits ?? PLAN_LIMIT_MINIMUMS
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    features: fromJson<PlanFeatures>(row.features, {} as PlanFeatures),
    limits: { ...fallback, ...fromJson<Partial<PlanLimits>>(row.limits, {}) },
  }
}

export class PlanRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  /** Inserts the default plans that are missing; operator edits of existing rows are kept. */
  async seedDefaults(): Promise<void> {
    for (const plan of DEFAULT_PLANS) {
      await this.#db.kysely
        .insertInto('plans')
        .values({
          id: plan.id,
          name: plan.name,
          position: plan.position,
          features: toJson(plan.features),
          limits: toJson(plan.limits),
          updated_at: nowIso(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    }
  }

  async list(): Promise<Plan[]> {
    const rows = await this.#db.kysely.selectFrom('plans').selectAll().orderBy('position').execute()
    return rows.map(toPlan)
  }

  async get(id: string): Promise<Plan | undefined> {
    const row = await this.#db.kysely.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toPlan(row) : undefined
  }

  async update(plan: Plan): Promise<void> {
    await this.#db.kysely
      .updateTable('plans')
      .set({
        name: plan.name,
        features: toJson(plan.features),
        limits: toJson(plan.limits),
        updated_at: nowIso(),
      })
      .where('id', '=', plan.id)
      .execute()
  }
}
