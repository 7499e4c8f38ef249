// The one rule by which every queue backend chooses which waiting jobs a claim takes
// (docs/decisions/0028-fair-claiming-and-group-limits.md). A job may belong to a group (a
// workspace, later a batch) with a limit on how many of its jobs run at once. A backend reads, under
// its own claim lock, one line per group of the queue, asks `planFairClaims` how many jobs to take
// from each, takes each group's first jobs (priority, then arrival) and records when each group was
// served. Jobs without a group form one group of their own, with no limit.

/** Where jobs without a group are counted. */
export const UNGROUPED = ''

export interface GroupState {
  /** the group's key; UNGROUPED for jobs sent without one */
  key: string
  /** most jobs of the group running at once; null: no limit but the workers' */
  limit: number | null
  /** jobs of the group running now (leases not yet run out), in every process */
  running: number
  /** jobs of the group ready to be claimed now */
  waiting: number
  /** the best priority among its waiting jobs, as a rank: lower goes first */
  headRank: number
  /** when its oldest waiting job arrived (any increasing number) */
  headArrival: number
  /** when the group was last served, as an increasing number; 0: never */
  lastServed: number
}

/** How many jobs to take from each group, in the order they were chosen. */
export interface FairClaimPlan {
  take: Map<string, number>
  /** the new `lastServed` of each group this claim serves, for the backend to store */
  lastServed: Map<string, number>
}

/**
 * Fills up to `slots` slots one job at a time. Each time, among the groups with a job waiting and
 * below their limit: the best priority first (normal before low, as before groups existed); then
 * the group with the fewest jobs running; then the one served longest ago (never before first);
 * then the one whose job has waited longest. A group served takes the last place among equals, so
 * a workspace with 10,000 jobs waiting and one with a single job take turns: the single job waits
 * for at most one of the other's.
 */
export function planFairClaims(
  groups: readonly GroupState[],
  slots: number,
  /** the highest `lastServed` ever stored for the queue, idle groups included */
  highestServed = 0,
): FairClaimPlan {
  const states = groups.map((group) => ({ ...group }))
  const take = new Map<string, number>()
  const lastServed = new Map<string, number>()
  // counted on from every group's, not only the live ones': a group served last and then idle
  // must not come back behind a busy one whose numbers are still lower
  let served = Math.max(highestServed, ...states.map((group) => group.lastServed))
  for (let slot = 0; slot < slots; slot++) {
    let best: (typeof states)[number] | undefined
    for (const group of states) {
      if (group.waiting <= 0) continue
      if (group.limit !== null && group.running >= group.limit) continue
      if (!best || goesBefore(group, best)) best = group
    }
    if (!best) break
    best.waiting--
    best.running++
    best.lastServed = ++served
    take.set(best.key, (take.get(best.key) ?? 0) + 1)
    lastServed.set(best.key, best.lastServed)
  }
  return { take, lastServed }
}

function goesBefore(a: GroupState, b: GroupState): boolean {
  if (a.headRank !== b.headRank) return a.headRank < b.headRank
  if (a.running !== b.running) return a.running < b.running
  if (a.lastServed !== b.lastServed) return a.lastServed < b.lastServed
  return a.headArrival < b.headArrival
}
