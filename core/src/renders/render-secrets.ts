import { ProblemError } from '../kernel/problem-error.ts'
import type { SecretKeyConfig } from '../kernel/secret-box.ts'
import { SecretBox } from '../kernel/secret-box.ts'
import type { RenderRequest } from './render.ts'

// A render's request is kept with the render; the credentials in it are not. At creation they
// move out of the request into `renders.secrets`, sealed with the installation key; the worker
// opens them for the run, and every end of the render (finish, cancel, lost) clears the column.

/** Where credentials sit in a request: URL-input HttpOptions, `pdf.protect`, the protect and unlock tools. */
const SECRET_FIELDS: readonly (readonly string[])[] = [
  ['input', 'http'],
  ['output', 'pdf', 'protect', 'user_password'],
  ['output', 'pdf', 'protect', 'owner_password'],
  ['input', 'options', 'user_password'],
  ['input', 'options', 'owner_password'],
  ['input', 'options', 'password'],
]

type Json = Record<string, unknown>

export class RenderSecretBox extends SecretBox {
  constructor({ config }: { config: SecretKeyConfig }) {
    super(config, 'docsvc render secrets')
  }
}

function parentOf(root: Json, path: readonly string[], create: boolean): Json | undefined {
  let node = root
  for (const name of path.slice(0, -1)) {
    const next = node[name]
    if (next !== null && typeof next === 'object' && !Array.isArray(next)) node = next as Json
    else if (create) node = node[name] = {}
    else return undefined
  }
  return node
}

/** The request without its credentials, and the credentials sealed (null when it has none). */
export function sealSecrets(
  box: SecretBox,
  request: RenderRequest,
): { request: RenderRequest; secrets: string | null } {
  const stripped = structuredClone(request) as unknown as Json
  const taken: [string, unknown][] = []
  for (const path of SECRET_FIELDS) {
    const parent = parentOf(stripped, path, false)
    const name = path[path.length - 1]!
    if (parent?.[name] === undefined || parent[name] === null) continue
    taken.push([path.join('.'), parent[name]])
    delete parent[name]
  }
  if (taken.length === 0) return { request, secrets: null }
  return { request: stripped as unknown as RenderRequest, secrets: box.seal(JSON.stringify(taken)) }
}

/** The request as it was sent, credentials back in place, for the run only (never stored). */
export function openSecrets(box: SecretBox, request: RenderRequest, secrets: string | null): RenderRequest {
  if (secrets === null) return request
  let opened: string
  try {
    opened = box.open(secrets)
  } catch {
    throw new ProblemError(
      'render_failed',
      "The render's credentials could not be opened: the installation's secret key changed since it was created.",
    )
  }
  const full = structuredClone(request) as unknown as Json
  for (const [dotted, value] of JSON.parse(opened) as [string, unknown][]) {
    const path = dotted.split('.')
    parentOf(full, path, true)![path[path.length - 1]!] = value
  }
  return full as unknown as RenderRequest
}
