import type { TemplateContent, TemplateType } from './template.ts'

/**
 * The `input` of a template render as stored with the render: what the client asked for plus
 * what creation resolved (the version, the template's type), so the worker renders exactly the
 * version that was live when the render was accepted.
 */
export interface TemplateRenderInput extends Record<string, unknown> {
  type: 'template'
  template_id: string | null
  /** as asked: `live`, `draft` or a number */
  version: 'live' | 'draft' | number
  /** resolved at creation; null for the draft, which is read when the render runs */
  version_id: string | null
  version_number: number | null
  template_type: TemplateType
  dataset_id?: string
  overrides: Record<string, unknown>[]
  /** previews only: content sent inline instead of a stored template */
  content?: TemplateContent
  preview?: boolean
}

export function isPreparedTemplateInput(input: Record<string, unknown>): input is TemplateRenderInput {
  return input.type === 'template' && typeof input.template_type === 'string'
}
