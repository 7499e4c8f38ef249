export interface PlanFeatures {
  pdfa: boolean
  pdfua: boolean
  einvoice: boolean
  email: boolean
  batches: boolean
  storage_destinations: boolean
  signed_links: boolean
  /** renders beyond `included_renders` are allowed (billed as overage); false makes it a hard limit (402) */
  overage: boolean
}

export interface PlanLimits {
  requests_per_second: number
  test_renders_per_minute: number
  sync_timeout_seconds: number
  max_body_bytes: number
  max_pages: number
  retention_days: number
  included_renders: number
  /** renders one auto top-up adds once the included ones are used (plans with overage) */
  top_up_renders: number
  bulk_concurrency: number
  sync_concurrency: number
}

export interface Plan {
  id: string
  name: string
  position: number
  features: PlanFeatures
  limits: PlanLimits
}

// Run-time lists of the keys above, so operator edits can be checked against them; the
// Record types make the compiler insist that every field is listed. The titles are what
// people read in problems and in the plan tables (SPEC's names).
export const PLAN_FEATURE_TITLES: Record<keyof PlanFeatures, string> = {
  pdfa: 'PDF/A',
  pdfua: 'PDF/UA',
  einvoice: 'E-invoicing',
  email: 'Email delivery',
  batches: 'Batches',
  storage_destinations: 'Storage destinations',
  signed_links: 'Signed links',
  overage: 'Overage',
}

export const PLAN_FEATURE_KEYS = Object.keys(PLAN_FEATURE_TITLES) as (keyof PlanFeatures)[]

/** The smallest whole number each limit accepts (0 where "none" makes sense). */
export const PLAN_LIMIT_MINIMUMS: Record<keyof PlanLimits, number> = {
  requests_per_second: 1,
  test_renders_per_minute: 0,
  sync_timeout_seconds: 1,
  max_body_bytes: 1024,
  max_pages: 1,
  retention_days: 1,
  included_renders: 0,
  top_up_renders: 1,
  bulk_concurrency: 1,
  sync_concurrency: 1,
}

export const PLAN_LIMIT_KEYS = Object.keys(PLAN_LIMIT_MINIMUMS) as (keyof PlanLimits)[]
