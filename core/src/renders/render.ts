import type { FileFormat } from '../sdk/render-contracts.ts'
import type { RenderStatus } from '../sdk/render-records.ts'

// The record types producers see live in the SDK (a third party's producer reads them too).
export type { DeliveryType, Render, RenderError, RenderRequest, RenderStatus } from '../sdk/render-records.ts'

export const FINISHED_STATUSES: RenderStatus[] = ['succeeded', 'failed', 'canceled', 'expired']

export interface RenderFile {
  id: string
  render_id: string
  workspace_id: string
  position: number
  format: FileFormat
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
