// The billing feature's tables (migrations 0009-billing and 0012-billing-reservations in ./migrations), joined to the Database
// type. Other features reach billing through BillingService, never here.

/** An operator's billing settings of one workspace; no row means the defaults. */
export interface BillingAccountTable {
  workspace_id: string
  /** 1 to 28: the day of the month, 00:00 UTC, each cycle starts */
  cycle_start_day: number
  /** top-ups a cycle may take; null: no limit, 0: auto top-ups off */
  top_up_limit: number | null
  updated_at: string
}

/** One cycle of one workspace and its counters, written in the transaction that bills the work. */
export interface BillingCycleTable {
  workspace_id: string
  /** ISO 8601 UTC, inclusive */
  cycle_start: string
  /** ISO 8601 UTC, exclusive */
  cycle_end: string
  /** billed renders of the cycle */
  renders: number
  /** auto top-ups the cycle took */
  top_ups: number
  /** units reserved by admitted work not finished yet (docs/decisions/0097) */
  reserved: number
}

/** One admitted unit of billable work (a render) holding a unit of the cycle that admitted it. */
export interface BillingReservationTable {
  /** the work's id (a render id): one reservation each */
  unit_id: string
  workspace_id: string
  /** the cycle the unit was reserved in, and is billed in */
  cycle_start: string
  reserved_at: string
}

/** A usage threshold a cycle reached: its key makes the event once per cycle and threshold. */
export interface BillingThresholdTable {
  workspace_id: string
  cycle_start: string
  threshold: string
  reached_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    billing_accounts: BillingAccountTable
    billing_cycles: BillingCycleTable
    billing_thresholds: BillingThresholdTable
    billing_reservations: BillingReservationTable
  }
}
