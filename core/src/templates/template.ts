// Template records of SPEC 2.6. A template is not a test or live object: test and live keys of a
// workspace share its templates (renders made from them are test or live).

export const TEMPLATE_TYPES = ['pdf_code', 'pdf_markdown', 'image_canvas'] as const
export type TemplateType = (typeof TEMPLATE_TYPES)[number]

/** What a template renders, per type (DESIGN.md §10); stored as JSON in the draft and each version. */
export type TemplateContent = Record<string, unknown>

/** The mutable part of a template: replaced whole by `PUT .../draft`. */
export interface TemplateDraft {
  content: TemplateContent
  /** JSON Schema (draft 2020-12) the render data must match; null accepts any object */
  data_schema: Record<string, unknown> | null
  /** example data: publish renders it, previews use it when the request has none */
  sample_data: Record<string, unknown> | null
}

export interface Template {
  id: string
  workspace_id: string
  type: TemplateType
  name: string
  description: string | null
  draft: TemplateDraft
  /** increases with every draft replacement; `PUT .../draft` must name the one it read */
  draft_revision: number
  live_version: number | null
  /** the highest version number published so far */
  latest_version: number
  locked: boolean
  created_at: string
  updated_at: string
  /** set while the template sits in the trash */
  deleted_at: string | null
}

export interface TemplateVersion extends TemplateDraft {
  id: string
  template_id: string
  workspace_id: string
  number: number
  notes: string | null
  created_at: string
}

export interface TemplateDataset {
  id: string
  template_id: string
  workspace_id: string
  name: string
  data: Record<string, unknown>
  is_default: boolean
  created_at: string
  updated_at: string
}

/** SPEC 8: deleted templates stay in the trash this long, then are purged. */
export const TRASH_DAYS = 30
