import { readFileSync } from 'node:fs'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'

/**
 * Reads a TypeBox object schema from env vars (and an optional JSON file underneath) and
 * reports every problem at once, naming the env var to set. Env names derive from the path:
 * `publicUrl` -> `DOCSVC_PUBLIC_URL`; nested objects join with `_`.
 */
export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

export function envName(prefix: string, path: string[]): string {
  return [prefix, ...path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2'))].join('_').toUpperCase()
}

interface SchemaNode {
  type?: string | string[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  secret?: boolean
}

function fromEnvText(text: string, schema: SchemaNode): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
    case 'number':
      return text.trim() === '' ? text : Number(text)
    case 'boolean':
      return ['1', 'true', 'yes', 'on'].includes(text.toLowerCase())
        ? true
        : ['0', 'false', 'no', 'off', ''].includes(text.toLowerCase())
          ? false
          : text
    case 'array':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    case 'object':
      try {
        return JSON.parse(text)
      } catch {
        return text
      }
    default:
      return text
  }
}

function overlayEnv(
  target: Record<string, unknown>,
  schema: SchemaNode,
  env: NodeJS.ProcessEnv,
  prefix: string,
  path: string[],
): void {
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const childPath = [...path, key]
    if (child.type === 'object' && child.properties) {
      const nested = (target[key] ?? {}) as Record<string, unknown>
      overlayEnv(nested, child, env, prefix, childPath)
      if (Object.keys(nested).length > 0) target[key] = nested
      continue
    }
    const text = env[envName(prefix, childPath)]
    if (text !== undefined) target[key] = fromEnvText(text, child)
  }
}

export function readConfigFile(file: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new ConfigError([`config file ${file} cannot be read: ${(err as Error).message}`])
  }
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('not an object')
    return parsed as Record<string, unknown>
  } catch (err) {
    throw new ConfigError([`config file ${file} is not a JSON object: ${(err as Error).message}`])
  }
}

export function loadConfigSection<T extends TSchema>(
  schema: T,
  options: { env: NodeJS.ProcessEnv; prefix: string; path?: string[]; file?: Record<string, unknown> },
): { value: unknown; problems: string[] } {
  const path = options.path ?? []
  const raw = structuredClone(options.file ?? {})
  overlayEnv(raw, schema as SchemaNode, options.env, options.prefix, path)
  const value = Value.Default(schema, raw)
  const problems = [...Value.Errors(schema, value)].map((e) => {
    const at = e.instancePath.split('/').filter(Boolean)
    return `${envName(options.prefix, [...path, ...at])}: ${e.message}`
  })
  return { value, problems }
}

/** Copy of a config value with every field marked `secret` in the schema replaced by '***'. */
export function maskSecrets(value: unknown, schema: SchemaNode): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const child = schema.properties?.[key]
    if (child?.secret && v !== undefined && v !== '') out[key] = '***'
    else out[key] = child ? maskSecrets(v, child) : v
  }
  return out
}
