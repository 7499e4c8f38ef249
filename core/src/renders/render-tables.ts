// The renders feature's tables (migrations 0002, 0007, 0008 in ./migrations), joined to the
// Database type. Other features reach them through RenderService and render events, never here.

export interface RenderTable {
  id: string
  workspace_id: string
  test: number
  status: 'queued' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'expired'
  input_type: string
  kind: string
  source: string
  output_format: string
  reference: string | null
  metadata: string | null
  template_id: string | null
  batch_id: string | null
  key_id: string
  mode: 'sync' | 'async'
  priority: 'normal' | 'low'
  request: string
  result: string | null
  warnings: string
  error: string | null
  retention_days: number
  job_id: string | null
  attempts: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  files_expire_at: string | null
  updated_at: string
  /** the request's credentials, sealed with the installation key; null once the render ended */
  secrets: string | null
}

export interface RenderFileTable {
  id: string
  render_id: string
  workspace_id: string
  position: number
  format: string
  content_type: string
  size: number
  pages: number | null
  width: number | null
  height: number | null
  filename: string
  storage_key: string
  created_at: string
  deleted_at: string | null
}

export interface RenderLogTable {
  render_id: string
  seq: number
  at: string
  message: string
}

export interface BilledRenderTable {
  render_id: string
  workspace_id: string
  kind: string
  billed_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    renders: RenderTable
    render_files: RenderFileTable
    render_logs: RenderLogTable
    billed_renders: BilledRenderTable
  }
}
