export interface PlanFeatures {
  pdfa: boolean
  pdfua: boolean
  einvoice: boolean
  email: boolean
  batches: boolean
  storage_destinations: boolean
  signed_links: boolean
}

export interface PlanLimits {
  requests_per_second: number
  test_renders_per_minute: number
  sync_timeout_seconds: number
  max_body_bytes: number
  max_pages: number
  retention_days: number
  included_renders: number
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
