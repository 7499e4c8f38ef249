import type { TSchema } from 'typebox'
import type { Registries } from '../kernel/plugins/extension-points.ts'

// Parts of a request that a plugin validates (an input's fields, an output format's options) are
// open objects in the route schema: the route checks their envelope and the plugin the rest
// (renders/render-validation.ts). So that the OpenAPI document still describes every field, such
// a part is marked with the slot it stands for, and the document, when it is built, gets the
// schema the owning plugin registered there: a third-party plugin's fields appear like ours.

export type PluginSlot =
  /**
   * the options object of output formats (`output.pdf`; `output.image` for png, jpeg, webp and
   * html): one schema when the formats share it, else one variant per schema
   */
  | { of: 'output-options'; formats: string[] }
  /** one field of an input type's schema (`html` of `/v1/pdf/from-html` is the html input's) */
  | { of: 'input-field'; type: string; field: string }
  /** `input` of `POST /v1/renders`: one of every registered input type, plus the given schemas */
  | { of: 'inputs'; also: TSchema[] }
  /** one field of a scene renderer's scene schema (an image_canvas template's `layers`) */
  | { of: 'scene-field'; renderer: string; field: string }
  /** a storage destination's `provider`: the kinds installed */
  | { of: 'storage-providers' }
  /** a storage destination's `config` or `credentials`: one of every storage provider's schemas */
  | { of: 'storage-settings'; part: 'configSchema' | 'credentialsSchema' }
  /** a part the route takes open and core checks in code against this schema (template content) */
  | { of: 'schema'; schema: TSchema }

const SLOT = 'x-docsvc-slot'

type Json = Record<string, unknown>

/** `schema`, still validating as it does, marked as documented by the plugin schema of `slot`. */
export function documentedBy<T extends TSchema>(slot: PluginSlot, schema: T): T {
  return { ...schema, [SLOT]: slot }
}

/** A JSON copy: TypeBox's symbol keys and shared nodes stay out of the document. */
const copy = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json

function inputVariant(type: string, schema: Json): Json {
  const properties = (schema.properties as Json | undefined) ?? {}
  const required = (schema.required as string[] | undefined) ?? []
  return {
    ...schema,
    title: `${type} input`,
    properties: {
      type: { const: type, description: `\`${type}\`: selects this input type` },
      ...properties,
    },
    required: ['type', ...required.filter((r) => r !== 'type')],
  }
}

function resolveSlot(slot: PluginSlot, placeholder: Json, registries: Registries): Json | undefined {
  switch (slot.of) {
    case 'output-options': {
      // formats whose plugins registered the same schema share one variant
      const variants = new Map<string, string[]>()
      for (const format of slot.formats) {
        const schema = registries.outputs.get(format)?.optionsSchema
        if (schema)
          variants.set(JSON.stringify(schema), [...(variants.get(JSON.stringify(schema)) ?? []), format])
      }
      const schemas = [...variants].map(([schema, formats]) => ({
        json: JSON.parse(schema) as Json,
        formats,
      }))
      if (schemas.length <= 1) return schemas[0]?.json
      return {
        ...(placeholder.description ? { description: placeholder.description } : {}),
        anyOf: schemas.map(({ json, formats }) => ({ ...json, title: `${formats.join(', ')} options` })),
      }
    }
    case 'input-field': {
      const properties = (registries.inputs.get(slot.type)?.schema as Json | undefined)?.properties
      const field = (properties as Json | undefined)?.[slot.field]
      return field ? copy(field) : undefined
    }
    case 'scene-field': {
      const properties = (registries.sceneRenderers.get(slot.renderer)?.schema as Json | undefined)
        ?.properties
      const field = (properties as Json | undefined)?.[slot.field]
      return field ? copy(field) : undefined
    }
    case 'schema':
      return copy(slot.schema)
    case 'storage-providers': {
      const kinds = registries.storageProviders.keys()
      return kinds.length > 0 ? { ...copy(placeholder), enum: kinds } : undefined
    }
    case 'storage-settings': {
      const variants = registries.storageProviders.keys().map((provider) => ({
        ...copy(registries.storageProviders.get(provider)?.[slot.part]),
        title: `${provider} ${slot.part === 'configSchema' ? 'config' : 'credentials'}`,
      }))
      if (variants.length === 0) return undefined
      return {
        ...(placeholder.description ? { description: placeholder.description } : {}),
        anyOf: variants,
      }
    }
    case 'inputs': {
      const variants = registries.inputs
        .keys()
        .map((type) => inputVariant(type, copy(registries.inputs.get(type)?.schema)))
      const also = slot.also.map((schema) => copy(schema))
      return {
        ...(placeholder.description ? { description: placeholder.description } : {}),
        anyOf: [...variants, ...also],
      }
    }
  }
}

/**
 * The document with every slot replaced by its plugin's schema. The placeholder's description
 * and example stay when the plugin gives none; a slot whose plugin is not installed keeps the
 * placeholder (the route refuses its values anyway).
 */
export function fillPluginSlots<T>(node: T, registries: Registries): T {
  if (Array.isArray(node)) return node.map((item) => fillPluginSlots(item, registries)) as T
  if (node === null || typeof node !== 'object') return node
  const object = node as Json
  const slot = object[SLOT] as PluginSlot | undefined
  if (slot) {
    const { [SLOT]: _slot, ...placeholder } = object
    const resolved = resolveSlot(slot, placeholder, registries)
    if (!resolved) return fillPluginSlots(placeholder, registries) as T
    const kept = Object.fromEntries(
      ['description', 'example', 'examples']
        .filter((key) => placeholder[key] !== undefined && resolved[key] === undefined)
        .map((key) => [key, placeholder[key]]),
    )
    // a resolved schema may hold slots of its own (template content holds `pdf` options)
    return fillPluginSlots({ ...resolved, ...kept }, registries) as T
  }
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [key, fillPluginSlots(value, registries)]),
  ) as T
}
