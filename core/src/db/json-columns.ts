// JSON and boolean columns are stored as text and 0/1 in both dialects (see schema.ts).
export function toJson(value: unknown): string {
  return JSON.stringify(value)
}

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback
  return JSON.parse(text) as T
}

export function toFlag(value: boolean): number {
  return value ? 1 : 0
}

export function nowIso(now: Date = new Date()): string {
  return now.toISOString()
}
