import type { Template, TemplateDataset, TemplateVersion } from './template.ts'
import { TRASH_DAYS } from './template.ts'

const DAY_MS = 24 * 3600 * 1000

/** The template record (SPEC 2.6; fields beyond the named ones are ours, see docs/decisions/0011). */
export function templateView(t: Template) {
  return {
    id: t.id,
    object: 'template' as const,
    type: t.type,
    name: t.name,
    description: t.description,
    live_version: t.live_version,
    latest_version: t.latest_version,
    draft_revision: t.draft_revision,
    locked: t.locked,
    has_data_schema: t.draft.data_schema !== null,
    created_at: t.created_at,
    updated_at: t.updated_at,
    deleted_at: t.deleted_at,
    purge_at: t.deleted_at ? new Date(Date.parse(t.deleted_at) + TRASH_DAYS * DAY_MS).toISOString() : null,
  }
}

export function draftView(t: Template) {
  return {
    object: 'template_draft' as const,
    template_id: t.id,
    type: t.type,
    revision: t.draft_revision,
    content: t.draft.content,
    data_schema: t.draft.data_schema,
    sample_data: t.draft.sample_data,
    updated_at: t.updated_at,
  }
}

export function versionView(v: TemplateVersion, liveVersion: number | null) {
  return {
    id: v.id,
    object: 'template_version' as const,
    template_id: v.template_id,
    number: v.number,
    live: v.number === liveVersion,
    notes: v.notes,
    content: v.content,
    data_schema: v.data_schema,
    sample_data: v.sample_data,
    created_at: v.created_at,
  }
}

export function datasetView(d: TemplateDataset) {
  return {
    id: d.id,
    object: 'template_dataset' as const,
    template_id: d.template_id,
    name: d.name,
    data: d.data,
    is_default: d.is_default,
    created_at: d.created_at,
    updated_at: d.updated_at,
  }
}
