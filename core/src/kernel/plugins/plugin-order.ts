/**
 * Orders plugins so that each comes after the ones it requires, keeping the given order
 * otherwise. Every missing requirement and every cycle is a problem; all are returned at once.
 */
export function orderByRequires<P extends { manifest: { id: string; requires?: string[] } }>(
  plugins: P[],
  nounOf: (p: P) => string = () => 'plugin',
): { ordered: P[]; problems: string[] } {
  const byId = new Map<string, P>()
  for (const p of plugins) if (!byId.has(p.manifest.id)) byId.set(p.manifest.id, p)
  const ordered: P[] = []
  const problems: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (p: P, trail: string[]) => {
    const id = p.manifest.id
    if (state.get(id) === 'done') return
    if (state.get(id) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(id)), id]
      problems.push(`${nounOf(p)}s require each other in a cycle: ${cycle.join(' -> ')}`)
      return
    }
    state.set(id, 'visiting')
    for (const dep of p.manifest.requires ?? []) {
      const required = byId.get(dep)
      if (required) visit(required, [...trail, id])
      else problems.push(`${nounOf(p)} ${id} requires ${nounOf(p)} ${dep}, which is not installed`)
    }
    state.set(id, 'done')
    ordered.push(p)
  }
  for (const p of plugins) visit(p, [])
  return { ordered, problems }
}
