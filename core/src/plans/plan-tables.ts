// The plans feature's table (its part of migration 0001-platform in ./migrations), joined to the
// Database type. Other features reach plans through PlanService, never here.

export interface PlanTable {
  id: string
  name: string
  position: number
  features: string
  limits: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    plans: PlanTable
  }
}
