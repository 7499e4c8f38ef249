// The templates feature's tables (migration 0004), added to the database schema from here.

export interface TemplateTable {
  id: string
  workspace_id: string
  type: string
  name: string
  description: string | null
  draft: string
  draft_revision: number
  live_version: number | null
  latest_version: number
  locked: number
  created_at: string
  updated_at: string
  deleted_at: string | null
}

export interface TemplateVersionTable {
  id: string
  template_id: string
  workspace_id: string
  number: number
  content: string
  data_schema: string | null
  sample_data: string | null
  notes: string | null
  created_at: string
}

export interface TemplateDatasetTable {
  id: string
  template_id: string
  workspace_id: string
  name: string
  data: string
  is_default: number
  created_at: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    templates: TemplateTable
    template_versions: TemplateVersionTable
    template_datasets: TemplateDatasetTable
  }
}
