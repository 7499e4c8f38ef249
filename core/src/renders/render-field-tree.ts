import type { Registries } from '../kernel/plugins/extension-points.ts'

/**
 * A render body's whole field tree for "did you mean" (http/field-suggestions.ts): the route's
 * schema types the plugin-owned parts as open objects, so the plugins' schemas are laid over it
 * at the dotted places they fill (`''` is the body itself, `output.pdf` the PDF options).
 */
export function renderFieldTree(body: unknown, parts: Record<string, unknown>): unknown {
  const layers = Object.entries(parts)
    .filter(([, schema]) => schema !== undefined)
    .map(([at, schema]) =>
      (at === '' ? [] : at.split('.')).reduceRight<unknown>(
        (inner, name) => ({ properties: { [name]: inner } }),
        schema,
      ),
    )
  return { allOf: [body, ...layers] }
}

/** The options schema of an output format, when an installed plugin renders it. */
export function optionsSchemaOf(registries: Registries, format: string): unknown {
  return registries.outputs.get(format)?.optionsSchema
}

/** Every installed input plugin's fields, as alternatives of one `input` object. */
export function inputSchemasOf(registries: Registries): unknown {
  return { anyOf: registries.inputs.keys().map((type) => registries.inputs.get(type)!.schema) }
}
