import { fileBody } from '../../core/src/uploads/multipart-body.fixture.ts'
import { fetchWire, type WireResponse } from './wire-client.ts'

/** Sends one API request with a key; JSON bodies are serialised, Buffers go as they are. */
export type ApiCall = (request: {
  method: string
  path: string
  key: string
  body?: unknown
  headers?: Record<string, string>
}) => Promise<WireResponse>

/**
 * One of every resource that has an id, made through the API with one key, named by the path
 * parameter that addresses it in the OpenAPI document (`render_id`, `template_id`, ...). The
 * sweeps fill `{param}` from this, so a new kind of id in the document without a fixture here
 * is noticed (the tenancy sweep fails on it).
 */
export type ResourceIds = Record<string, string>

/** The smallest valid PDF we can make by hand: one empty page. */
export function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

function expectStatus(res: WireResponse, statuses: number[], what: string): Record<string, unknown> {
  if (!statuses.includes(res.status))
    throw new Error(`fixture ${what}: HTTP ${res.status} ${res.body.slice(0, 300)}`)
  return res.body ? (JSON.parse(res.body) as Record<string, unknown>) : {}
}

/**
 * Creates the resources with `key` (test or live). `webhookBase` is where the endpoint points
 * (nothing needs to listen there). A render's file only exists when a worker runs: `withFiles`
 * renders synchronously and records `file_id` and the signed download `token`.
 */
export async function createResources(
  call: ApiCall,
  key: string,
  { webhookUrl, withFiles }: { webhookUrl: string; withFiles: boolean },
): Promise<ResourceIds> {
  const ids: ResourceIds = {}
  const template = expectStatus(
    await call({
      method: 'POST',
      path: '/v1/templates',
      key,
      body: { type: 'pdf_code', name: 'Sweep fixture', html: '<p>Hello {{ name }}</p>' },
    }),
    [201],
    'template',
  )
  ids.template_id = template.id as string
  const version = expectStatus(
    await call({ method: 'POST', path: `/v1/templates/${ids.template_id}/publish`, key, body: {} }),
    [201],
    'publish',
  )
  ids.number = String(version.number ?? version.version ?? 1)
  const dataset = expectStatus(
    await call({
      method: 'POST',
      path: `/v1/templates/${ids.template_id}/datasets`,
      key,
      body: { name: 'fixture data', data: { name: 'Ada' } },
    }),
    [201],
    'dataset',
  )
  ids.dataset_id = dataset.id as string
  const endpoint = expectStatus(
    await call({
      method: 'POST',
      path: '/v1/webhook-endpoints',
      key,
      body: { url: webhookUrl, events: ['render.succeeded'] },
    }),
    [201],
    'webhook endpoint',
  )
  ids.endpoint_id = endpoint.id as string
  const delivery = expectStatus(
    await call({
      method: 'POST',
      path: `/v1/webhook-endpoints/${ids.endpoint_id}/test`,
      key,
      body: { event: 'render.succeeded' },
    }),
    [202],
    'webhook delivery',
  )
  ids.delivery_id = delivery.id as string
  const destination = expectStatus(
    await call({
      method: 'POST',
      path: '/v1/storage-destinations',
      key,
      body: {
        name: 'Sweep fixture',
        provider: 'object_store',
        config: { bucket: 'sweep-fixture', region: 'eu-central-1' },
        credentials: { access_key_id: 'AKIAFIXTURE', secret_access_key: 'fixture-secret' },
      },
    }),
    [201],
    'storage destination',
  )
  ids.destination_id = destination.id as string
  const render = expectStatus(
    await call({
      method: 'POST',
      path: '/v1/pdf/from-html',
      key,
      body: { html: '<p>sweep fixture</p>', mode: withFiles ? 'sync' : 'async', reference: 'fixture' },
    }),
    withFiles ? [200] : [202],
    'render',
  )
  ids.render_id = render.id as string
  if (withFiles) {
    const [file] = render.files as { id: string; url: string }[]
    if (!file) throw new Error(`fixture render has no file: ${JSON.stringify(render)}`)
    ids.file_id = file.id
    ids.token = new URL(file.url).pathname.split('/').pop() as string
  }
  const { payload, headers } = fileBody(tinyPdf())
  const upload = expectStatus(
    await call({ method: 'POST', path: '/v1/uploads', key, body: payload, headers }),
    [201],
    'upload',
  )
  ids.upload_id = upload.id as string
  return ids
}

/** An ApiCall over a real socket to `base`; redirects are answers, not followed. */
export function socketCall(base: string): ApiCall {
  return ({ method, path, key, body, headers = {} }) => {
    const raw = Buffer.isBuffer(body)
    const json = body !== undefined && !raw
    return fetchWire(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        authorization: `Bearer ${key}`,
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: raw ? (body as Buffer) : JSON.stringify(body) } : {}),
    })
  }
}
