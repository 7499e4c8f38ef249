import { describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import type { RenderRequest } from './render.ts'
import { openSecrets, RenderSecretBox, sealSecrets } from './render-secrets.ts'

const box = (secretKey: string) =>
  new RenderSecretBox({ config: { secretKey, mode: 'embedded', dataDir: '/nonexistent' } })
const KEY = 'render-secrets-test-key-0123456789abcdef'

const request = {
  input: {
    type: 'url',
    url: 'https://example.test/report',
    http: { basic_auth: { username: 'ann', password: 'pw-basic' }, headers: { 'X-Token': 'pw-header' } },
  },
  data: null,
  data_url: null,
  output: {
    format: 'pdf',
    pdf: {
      scale: 1,
      protect: { user_password: 'pw-user', owner_password: null, permissions: { copy: false } },
    },
  },
  delivery: { type: 'url' },
  filename: null,
  expires_in: null,
  hosted: null,
  webhook: null,
  timeout_behavior: 'continue',
} as unknown as RenderRequest

// The HTTP suite (test/src/renders-at-rest.test.ts) covers URL credentials and the tools;
// `pdf.protect` of a render needs a real PDF output, so its fields are checked here.
describe('render credentials sealed apart from the request', () => {
  it('takes http and pdf.protect passwords out, and puts the same request back together', () => {
    const { request: kept, secrets } = sealSecrets(box(KEY), request)
    const text = JSON.stringify(kept)
    for (const secret of ['pw-basic', 'pw-header', 'pw-user']) {
      expect(text).not.toContain(secret)
      expect(secrets).not.toContain(secret)
    }
    // what is not a credential stays: the URL, permissions, a null password
    expect(kept.input).toEqual({ type: 'url', url: 'https://example.test/report' })
    expect(kept.output.pdf).toEqual({
      scale: 1,
      protect: { owner_password: null, permissions: { copy: false } },
    })
    expect(openSecrets(box(KEY), kept, secrets)).toEqual(request)
  })

  it('leaves a request without credentials as it is', () => {
    const plain = {
      ...request,
      input: { type: 'html', html: '<p>x</p>' },
      output: { format: 'pdf' },
    } as RenderRequest
    expect(sealSecrets(box(KEY), plain)).toEqual({ request: plain, secrets: null })
  })

  it('another installation key cannot open them: the render fails with render_failed', () => {
    const { request: kept, secrets } = sealSecrets(box(KEY), request)
    let thrown: unknown
    try {
      openSecrets(box(`${KEY}-other`), kept, secrets)
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(ProblemError)
    expect((thrown as ProblemError).code).toBe('render_failed')
  })
})
