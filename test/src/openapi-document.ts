// Just enough of OpenAPI 3.1's shape to walk a document in tests.

export interface MediaType {
  schema?: Record<string, unknown>
}

export interface ResponseObject {
  description: string
  content?: Record<string, MediaType>
}

export interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: Record<string, unknown>
  example?: unknown
  examples?: Record<string, { value: unknown }>
}

export interface Operation {
  security?: Record<string, string[]>[]
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, MediaType> }
  responses: Record<string, ResponseObject>
}

export interface OpenApiDocument {
  openapi: string
  security?: Record<string, string[]>[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Record<string, unknown>> }
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Fastify's `/a/:id` as OpenAPI's `/a/{id}`. */
export function openApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

export function* operationsOf(doc: OpenApiDocument): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method]
      if (operation) yield [path, method, operation]
    }
  }
}

/** The names of a path's `{param}` segments, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string)
}

/** The path with its `{param}` segments replaced (values are percent-encoded here). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''))
}
