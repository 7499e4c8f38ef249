import type { FieldProblem } from '../kernel/problem-error.ts'
import type { FileFormat, RenderWarning } from './render-contracts.ts'

// A render as stored: what a producer (producer-contracts.ts) is handed. Plain data; the renders
// feature owns its table and its lifecycle, and re-exports these types for core's own use.

export type RenderStatus = 'queued' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'expired'
export type DeliveryType = 'url' | 'binary' | 'base64' | 'none'

/** The request as the worker executes it: normalised at creation, stored with the render. */
export interface RenderRequest {
  input: { type: string } & Record<string, unknown>
  data: Record<string, unknown> | null
  data_url: string | null
  output: {
    format: FileFormat
    pdf?: Record<string, unknown>
    image?: Record<string, unknown>
    /** SPEC 2.16 `output.einvoice`: the e-invoice a PDF embeds (profile and EN 16931 model) */
    einvoice?: { profile: string; invoice: Record<string, unknown> } | null
  }
  /** `email` is kept to check it fits the render's hosting (email delivery comes later) */
  /**
   * `email` and `storage` are kept to be checked at creation (hosting, then refused until email
   * and storage delivery exist: core/src/renders/unbuilt-delivery.ts)
   */
  delivery: { type: DeliveryType; email?: { rule_id: string }[]; storage?: object[] }
  filename: string | null
  /** seconds signed file URLs stay valid */
  expires_in: number | null
  hosted: boolean | null
  webhook: { url: string; events?: string[] } | null
  timeout_behavior: 'continue' | 'cancel'
  /** input fields kept in the file store instead (render-input-bodies.ts): field -> storage key */
  stored_bodies?: Record<string, string>
}

export interface RenderError {
  code: string
  message: string
  line?: number
  column?: number
  excerpt?: string
  /** every problem, each with its JSON Pointer (e.g. data_invalid, scene_invalid) */
  errors?: FieldProblem[]
}

export interface Render {
  id: string
  workspace_id: string
  test: boolean
  status: RenderStatus
  input_type: string
  kind: string
  source: string
  output_format: FileFormat
  reference: string | null
  metadata: Record<string, unknown> | null
  template_id: string | null
  batch_id: string | null
  key_id: string
  mode: 'sync' | 'async'
  priority: 'normal' | 'low'
  request: RenderRequest
  result: Record<string, unknown> | null
  warnings: RenderWarning[]
  error: RenderError | null
  retention_days: number
  job_id: string | null
  attempts: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  files_expire_at: string | null
  updated_at: string
  /** the request's credentials, sealed (render-secrets.ts); null when it had none or has ended */
  secrets: string | null
}
