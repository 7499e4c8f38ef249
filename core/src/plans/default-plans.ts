import type { Plan, PlanFeatures } from './plan.ts'

const MB = 1024 * 1024

/** Growth and up: everything on. */
const EVERY_FEATURE: PlanFeatures = {
  pdfa: true,
  pdfua: true,
  einvoice: true,
  email: true,
  batches: true,
  storage_destinations: true,
  signed_links: true,
  overage: true,
}

// The plans an installation starts with. They are data: `docsvc plan set` edits them in the
// database, and nothing in the code branches on a plan's id.
export const DEFAULT_PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    position: 0,
    features: {
      pdfa: false,
      pdfua: false,
      einvoice: false,
      email: false,
      batches: false,
      storage_destinations: false,
      signed_links: true,
      overage: false,
    },
    limits: {
      requests_per_second: 2,
      test_renders_per_minute: 10,
      sync_timeout_seconds: 30,
      max_body_bytes: 5 * MB,
      max_pages: 50,
      retention_days: 1,
      included_renders: 50,
      bulk_concurrency: 1,
      sync_concurrency: 2,
    },
  },
  {
    id: 'starter',
    name: 'Starter',
    position: 1,
    features: {
      pdfa: false,
      pdfua: false,
      einvoice: false,
      email: false,
      batches: true,
      storage_destinations: true,
      signed_links: true,
      overage: true,
    },
    limits: {
      requests_per_second: 5,
      test_renders_per_minute: 60,
      sync_timeout_seconds: 60,
      max_body_bytes: 10 * MB,
      max_pages: 200,
      retention_days: 7,
      included_renders: 1000,
      bulk_concurrency: 2,
      sync_concurrency: 5,
    },
  },
  {
    id: 'growth',
    name: 'Growth',
    position: 2,
    features: { ...EVERY_FEATURE },
    limits: {
      requests_per_second: 10,
      test_renders_per_minute: 60,
      sync_timeout_seconds: 120,
      max_body_bytes: 25 * MB,
      max_pages: 500,
      retention_days: 30,
      included_renders: 5000,
      bulk_concurrency: 4,
      sync_concurrency: 10,
    },
  },
  {
    id: 'pro',
    name: 'Pro',
    position: 3,
    features: { ...EVERY_FEATURE },
    limits: {
      requests_per_second: 25,
      test_renders_per_minute: 120,
      sync_timeout_seconds: 300,
      max_body_bytes: 50 * MB,
      max_pages: 2000,
      retention_days: 90,
      included_renders: 20000,
      bulk_concurrency: 8,
      sync_concurrency: 20,
    },
  },
  {
    id: 'scale',
    name: 'Scale',
    position: 4,
    features: { ...EVERY_FEATURE },
    limits: {
      requests_per_second: 50,
      test_renders_per_minute: 300,
      sync_timeout_seconds: 300,
      max_body_bytes: 50 * MB,
      max_pages: 5000,
      retention_days: 365,
      included_renders: 100000,
      bulk_concurrency: 16,
      sync_concurrency: 50,
    },
  },
]
