import type { UsageCount } from '../renders/billed-render-counts.ts'
import { BUCKET_MS, type GroupBy, type UsageWindow } from './usage-query.ts'

export interface UsageGroup {
  key: string | null
  renders: number
}

export interface UsageBucket {
  start: string
  end: string
  renders: number
  groups?: UsageGroup[]
}

export interface UsageSeries {
  object: 'usage'
  from: string
  to: string
  granularity: UsageWindow['granularity']
  group_by: GroupBy | null
  total: number
  groups?: UsageGroup[]
  series: UsageBucket[]
}

/** Group keys in a stable order: by key, renders without one (e.g. no template) last. */
function byKey(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a < b ? -1 : 1
}

/**
 * Every UTC day or hour the window touches, in order and zero-filled; the first and last bucket are
 * cut to the window when it does not start or end on a bucket boundary. When grouped, every bucket
 * lists the same groups (every group with renders in the window), zero-filled too.
 */
export function usageSeries(window: UsageWindow, counts: UsageCount[], region: string): UsageSeries {
  const grouped = window.groupBy !== null
  const rows = window.groupBy === 'region' ? counts.map((c) => ({ ...c, group: region })) : counts
  const keyLength = window.granularity === 'day' ? 10 : 13
  const step = BUCKET_MS[window.granularity]
  const fromMs = Date.parse(window.from)
  const toMs = Date.parse(window.to)

  const byBucket = new Map<string, Map<string | null, number>>()
  const totals = new Map<string | null, number>()
  let total = 0
  for (const row of rows) {
    const groups = byBucket.get(row.bucket) ?? new Map<string | null, number>()
    groups.set(row.group, (groups.get(row.group) ?? 0) + row.renders)
    byBucket.set(row.bucket, groups)
    totals.set(row.group, (totals.get(row.group) ?? 0) + row.renders)
    total += row.renders
  }
  const keys = [...totals.keys()].sort(byKey)

  const series: UsageBucket[] = []
  for (let start = fromMs - (fromMs % step); start < toMs; start += step) {
    const bucketKey = new Date(start).toISOString().slice(0, keyLength)
    const groups = byBucket.get(bucketKey)
    const renders = groups ? [...groups.values()].reduce((a, b) => a + b, 0) : 0
    series.push({
      start: new Date(Math.max(start, fromMs)).toISOString(),
      end: new Date(Math.min(start + step, toMs)).toISOString(),
      renders,
      ...(grouped ? { groups: keys.map((key) => ({ key, renders: groups?.get(key) ?? 0 })) } : {}),
    })
  }

  return {
    object: 'usage',
    from: window.from,
    to: window.to,
    granularity: window.granularity,
    group_by: window.groupBy,
    total,
    ...(grouped ? { groups: keys.map((key) => ({ key, renders: totals.get(key) ?? 0 })) } : {}),
    series,
  }
}
