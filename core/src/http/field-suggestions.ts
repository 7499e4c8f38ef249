// "Did you mean": for a field the schema does not know, the known field the sender most likely
// meant, looked for beside it (a typo, `page_range`), below it (`landscape` sent at the top of a
// PDF request belongs in `pdf`; on the general endpoint in `output.pdf`) and one level up
// (`pdf.wait` belongs at the top). The field
// tree is a JSON Schema: an endpoint's body schema with its plugins' option schemas filled in.

type Schema = Record<string, unknown>

/** A schema and every alternative inside it (unions and intersections unwrapped). */
function variants(schema: unknown): Schema[] {
  if (!schema || typeof schema !== 'object') return []
  const s = schema as Schema
  const parts = [s.anyOf, s.oneOf, s.allOf].flatMap((list) => (Array.isArray(list) ? list : []))
  return [s, ...parts.flatMap(variants)]
}

function childSchemas(schema: unknown, token: string): unknown[] {
  return variants(schema).flatMap((v) => {
    if (/^\d+$/.test(token) && v.items) return [v.items]
    const child = (v.properties as Schema | undefined)?.[token]
    return child === undefined ? [] : [child]
  })
}

/** The field names an object at `tokens` may have; empty when the tree does not say. */
export function fieldsAt(root: unknown, tokens: readonly string[]): string[] {
  let level: unknown[] = [root]
  for (const token of tokens) level = level.flatMap((s) => childSchemas(s, token))
  return [...new Set(level.flatMap(variants).flatMap((v) => Object.keys((v.properties as Schema) ?? {})))]
}

/** `pageRanges`, `page-ranges` and `PAGE_RANGES` are the same field to a reader. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, '')
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = row
  }
  return previous[b.length]!
}

/** How far `sent` is from `known`, or undefined when too far to be a slip. */
function closeness(sent: string, known: string): number | undefined {
  const d = distance(normalise(sent), normalise(known))
  const allowed = Math.max(1, Math.floor(normalise(known).length / 4))
  return d <= allowed ? d : undefined
}

/** `waitUntil` → `wait` + `until`: a field named after its object and its own name run together. */
function splitCompound(name: string): [string, string] | undefined {
  const match = /^([a-z]+)(?:[_\-.]([a-z][a-z0-9_]*)|([A-Z][A-Za-z0-9_]*))$/.exec(name)
  if (!match) return undefined
  const rest = match[2] ?? match[3]!
  return [match[1]!, rest.replace(/[A-Z]/g, (c, i) => (i === 0 ? c.toLowerCase() : `_${c.toLowerCase()}`))]
}

interface Candidate {
  path: string[]
  /** lower is likelier: the edit distance, plus one per level moved */
  cost: number
}

function best(sent: string, known: string[], at: string[], moved: number): Candidate[] {
  return known.flatMap((name) => {
    const d = closeness(sent, name)
    return d === undefined ? [] : [{ path: [...at, name], cost: d + moved }]
  })
}

/**
 * The known field an unknown one most likely meant, as a dotted path from the root
 * (`pdf.landscape`), or undefined when nothing is close.
 */
export function suggestField(root: unknown, parent: readonly string[], sent: string): string | undefined {
  const here = [...parent]
  const siblings = fieldsAt(root, here).filter((name) => name !== sent)
  const candidates: Candidate[] = [...best(sent, siblings, here, 0)]
  for (const sibling of siblings) {
    const below = [...here, sibling]
    candidates.push(...best(sent, fieldsAt(root, below), below, 1))
    // the general render nests options twice (`output.pdf.landscape`)
    for (const child of fieldsAt(root, below)) {
      candidates.push(...best(sent, fieldsAt(root, [...below, child]), [...below, child], 2))
    }
  }
  if (here.length > 0) {
    const up = here.slice(0, -1)
    candidates.push(...best(sent, fieldsAt(root, up), up, 1))
  }
  const compound = splitCompound(sent)
  if (compound) {
    const [head, rest] = compound
    for (const at of here.length > 0 ? [here, here.slice(0, -1)] : [here]) {
      if (!fieldsAt(root, at).includes(head)) continue
      candidates.push(...best(rest, fieldsAt(root, [...at, head]), [...at, head], 1))
    }
  }
  candidates.sort((a, b) => a.cost - b.cost)
  const found = candidates[0]
  return found ? found.path.join('.') : undefined
}
