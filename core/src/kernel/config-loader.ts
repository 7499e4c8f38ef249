import { readFileSync } from 'node:fs'
import type { TSchema } from 'typebox'
import { Settings } from 'typebox/system'
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
  options: {
    env: NodeJS.ProcessEnv
    prefix: string
    path?: string[]
    file?: Record<string, unknown>
    /** the file's name, to report a bad value where it was written */
    fileName?: string
  },
): { value: unknown; problems: string[] } {
  const path = options.path ?? []
  const raw = structuredClone(options.file ?? {})
  // a misspelt key in the file would otherwise be ignored without a word
  const problems = options.file
    ? unknownFileKeys(options.file, schema as SchemaNode, [], fileLabel(options.fileName))
    : []
  overlayEnv(raw, schema as SchemaNode, options.env, options.prefix, path)
  const value = Value.Default(schema, raw)
  problems.push(...describeErrors(allErrors(schema, value), schema as SchemaNode, value, options, path))
  return { value, problems }
}

/** TypeBox stops at 8 errors by default (a union of literals alone yields one per member). */
function allErrors(schema: TSchema, value: unknown): ValueError[] {
  const { maxErrors } = Settings.Get()
  Settings.Set({ maxErrors: 10_000 })
  try {
    return [...Value.Errors(schema, value)]
  } finally {
    Settings.Set({ maxErrors })
  }
}

function fileLabel(fileName: string | undefined): string {
  return fileName ? `config file ${fileName}` : 'config file'
}

function unknownFileKeys(
  file: Record<string, unknown>,
  schema: SchemaNode,
  at: string[],
  label: string,
): string[] {
  const problems: string[] = []
  for (const [key, v] of Object.entries(file)) {
    const child = schema.properties?.[key]
    if (!child) problems.push(`${label}: unknown setting "${[...at, key].join('.')}"`)
    else if (child.properties && v !== null && typeof v === 'object' && !Array.isArray(v))
      problems.push(...unknownFileKeys(v as Record<string, unknown>, child, [...at, key], label))
  }
  return problems
}

/** Where a setting's value came from, as the user would look for it. */
export interface SettingSources {
  env: NodeJS.ProcessEnv
  prefix: string
  file?: Record<string, unknown>
  fileName?: string
}

/**
 * The name a problem with a setting goes under: the config file's key path when the file set it
 * and no env var overrode it (`config file /etc/docsvc.json: "port"`), else its env var.
 */
export function settingLabel(sources: SettingSources, names: string[]): string {
  const variable = envName(sources.prefix, names)
  return sources.env[variable] === undefined && inFile(sources.file, names)
    ? `${fileLabel(sources.fileName)}: "${names.join('.')}"`
    : variable
}

/** Whether the config file wrote this setting. */
function inFile(file: Record<string, unknown> | undefined, names: string[]): boolean {
  let at: unknown = file
  for (const name of names) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, name)) return false
    at = (at as Record<string, unknown>)[name]
  }
  return file !== undefined
}

interface ValueError {
  keyword: string
  instancePath: string
  params: object
  message: string
}

interface KnownParams {
  requiredProperties?: string[]
  allowedValue?: unknown
  allowedValues?: unknown[]
}

/**
 * One line per setting, named where it was written: its env var, or the config file's key path
 * when the file set it and no env var overrode it. A missing field names the field's own
 * variable, a union of literals lists the allowed values once, an array item names the list.
 */
function describeErrors(
  errors: ValueError[],
  schema: SchemaNode,
  value: unknown,
  sources: SettingSources,
  path: string[],
): string[] {
  const bySetting = new Map<
    string,
    { node: SchemaNode | undefined; got: unknown; messages: string[]; allowed: unknown[] }
  >()
  const entry = (segments: string[]) => {
    const { names, node, got } = locate(schema, value, segments)
    const variable = envName(sources.prefix, [...path, ...names])
    // a plugin's section (path) is read from env only; the file holds the core's settings
    const name = path.length === 0 ? settingLabel(sources, names) : variable
    let found = bySetting.get(name)
    if (!found) {
      // the env text as typed beats its parsed form (NaN prints as null)
      found = { node, got: sources.env[variable] ?? got, messages: [], allowed: [] }
      bySetting.set(name, found)
    }
    return found
  }
  for (const error of errors) {
    const segments = error.instancePath.split('/').filter(Boolean)
    const params = error.params as KnownParams
    if (error.keyword === 'required') {
      for (const field of params.requiredProperties ?? [])
        entry([...segments, field]).messages.push('is required')
    } else if (error.keyword === 'const') {
      entry(segments).allowed.push(params.allowedValue)
    } else if (error.keyword === 'enum') {
      entry(segments).allowed.push(...(params.allowedValues ?? []))
    } else if (error.keyword === 'anyOf') {
      entry(segments) // its branches' errors say more; alone it still counts
    } else {
      entry(segments).messages.push(error.message)
    }
  }
  return [...bySetting].map(([name, { node, got, messages, allowed }]) => {
    if (allowed.length > 0) messages.push(`must be one of ${allowed.map(String).join(', ')}`)
    if (messages.length === 0) messages.push('is not one of the accepted forms')
    const shown = got === undefined || node?.secret ? '' : ` (got ${JSON.stringify(got)})`
    return `${name}: ${[...new Set(messages)].join('; ')}${shown}`
  })
}

/** Maps an instance path to the setting's names; array items belong to the list's variable. */
function locate(
  schema: SchemaNode,
  value: unknown,
  segments: string[],
): { names: string[]; node: SchemaNode | undefined; got: unknown } {
  const names: string[] = []
  let node: SchemaNode | undefined = schema
  let got: unknown = value
  for (const segment of segments) {
    if (node?.type === 'array') break
    node = node?.properties?.[segment]
    got = got !== null && typeof got === 'object' ? (got as Record<string, unknown>)[segment] : undefined
    names.push(segment)
  }
  return { names, node, got }
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
