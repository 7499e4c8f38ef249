import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// SPEC 4.9 template records through HTTP: create, list, get, draft, publish, versions,
// rollback, lock, trash, schema and datasets, on both databases.

const INVOICE = {
  type: 'pdf_code',
  name: 'Invoice',
  html: '<h1>Invoice {{ number }}</h1>',
  css: 'h1 { color: navy }',
  data_schema: {
    type: 'object',
    required: ['number'],
    properties: { number: { type: 'string' }, total: { type: 'number' } },
  },
  sample_data: { number: 'INV-1', total: 10 },
}

describe.each(TEST_DIALECTS)('template records on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })
  })
  afterAll(() => t.close())

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    key = ws.liveKey,
  ) => t.inject({ method, url: `/v1${url}`, key, ...(payload ? { payload } : {}) })
  const create = async (body: object = INVOICE) => {
    const res = await call('POST', '/templates', body)
    expect(res.statusCode).toBe(201)
    return res.json()
  }

  it('creates a template from flat content fields or one content object (201)', async () => {
    const flat = await create()
    expect(flat).toMatchObject({
      object: 'template',
      type: 'pdf_code',
      name: 'Invoice',
      live_version: null,
      draft_revision: 1,
      locked: false,
      deleted_at: null,
    })
    expect(flat.id).toMatch(/^tpl_[0-9a-z]{26}$/)
    const draft = (await call('GET', `/templates/${flat.id}/draft`)).json()
    expect(draft).toMatchObject({
      object: 'template_draft',
      revision: 1,
      content: { html: '<h1>Invoice {{ number }}</h1>', css: 'h1 { color: navy }' },
      data_schema: INVOICE.data_schema,
      sample_data: INVOICE.sample_data,
    })
    const md = await create({
      type: 'pdf_markdown',
      name: 'Letter',
      content: { markdown: '# Hi', theme: 'github' },
    })
    expect((await call('GET', `/templates/${md.id}/draft`)).json().content).toEqual({
      markdown: '# Hi',
      theme: 'github',
    })
  })

  it('refuses content that does not fit the type, or both forms at once (400 validation_error)', async () => {
    const wrong = await call('POST', '/templates', { type: 'pdf_code', name: 'x', markdown: '# no' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({ code: 'validation_error' })
    expect(wrong.json().errors).toContainEqual(
      expect.objectContaining({ path: '/markdown', code: 'unknown_field' }),
    )
    const both = await call('POST', '/templates', {
      type: 'pdf_code',
      name: 'x',
      html: 'a',
      content: { html: 'b' },
    })
    expect(both.statusCode).toBe(400)
    expect(both.json().errors).toContainEqual(expect.objectContaining({ path: '/html', code: 'conflict' }))
    const inContent = await call('POST', '/templates', {
      type: 'image_canvas',
      name: 'x',
      content: { width: 0 },
    })
    expect(inContent.json().errors).toContainEqual(expect.objectContaining({ path: '/content/width' }))
    // page options are the PDF output's (the stand-in output knows only `scale`)
    const pdf = await call('POST', '/templates', {
      type: 'pdf_code',
      name: 'x',
      html: 'a',
      pdf: { scale: 9 },
    })
    expect(pdf.statusCode).toBe(400)
    expect(pdf.json().errors).toContainEqual(expect.objectContaining({ path: '/pdf/scale' }))
    const noType = await call('POST', '/templates', { name: 'x' })
    expect(noType.statusCode).toBe(400)
    expect(noType.json().errors).toContainEqual(expect.objectContaining({ path: '/type', code: 'required' }))
  })

  it('needs templates:write to create and templates:read to read (403 insufficient_scope)', async () => {
    const { key: reader } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['templates:read'],
    })
    const refused = await call('POST', '/templates', INVOICE, reader)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('insufficient_scope')
    const { key: renderer } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['render:write'],
    })
    expect((await call('GET', '/templates', undefined, renderer)).json().code).toBe('insufficient_scope')
  })

  it('honours key template allowlists: create refused, list filtered, others 403', async () => {
    const allowed = await create()
    const other = await create()
    const { key } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      templateAllowlist: [allowed.id],
    })
    const created = await call('POST', '/templates', INVOICE, key)
    expect(created.statusCode).toBe(403)
    expect(created.json().code).toBe('template_not_allowed_for_key')
    const list = (await call('GET', '/templates?limit=100', undefined, key)).json()
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([allowed.id])
    expect((await call('GET', `/templates/${allowed.id}`, undefined, key)).statusCode).toBe(200)
    const refused = await call('GET', `/templates/${other.id}`, undefined, key)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'template_not_allowed_for_key', status: 403 })
    expect((await call('GET', `/templates/${other.id}/versions`, undefined, key)).json().code).toBe(
      'template_not_allowed_for_key',
    )
  })

  it('lists newest first with q, type, limit and cursor', async () => {
    const mine = await t.createWorkspace()
    const make = (body: object) => call('POST', '/templates', body, mine.liveKey)
    const a = (await make({ type: 'pdf_code', name: 'Alpha invoice', html: 'a' })).json()
    const b = (await make({ type: 'pdf_markdown', name: 'Beta letter', markdown: 'b' })).json()
    const c = (await make({ type: 'pdf_code', name: 'Gamma INVOICE', html: 'c' })).json()
    const list = (q: string) => call('GET', `/templates${q}`, undefined, mine.liveKey).then((r) => r.json())
    expect((await list('')).data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id])
    expect((await list('?q=invoice')).data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id])
    expect((await list('?type=pdf_markdown')).data.map((x: { id: string }) => x.id)).toEqual([b.id])
    const pct = (await make({ type: 'pdf_code', name: '100% off_sale', html: 'p' })).json()
    expect((await list('?q=0%25%20off_')).data.map((x: { id: string }) => x.id)).toEqual([pct.id])
    expect((await list('?q=_')).data.map((x: { id: string }) => x.id)).toEqual([pct.id])
    const first = await list('?limit=2&type=pdf_code')
    expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: c.id })
    const second = await list(`?limit=2&type=pdf_code&cursor=${first.next_cursor}`)
    expect(second).toMatchObject({ has_more: false, next_cursor: null })
    expect(second.data.map((x: { id: string }) => x.id)).toEqual([a.id])
    expect((await call('GET', '/templates?type=docx', undefined, mine.liveKey)).statusCode).toBe(400)
    // another workspace's template is unknown here
    expect((await call('GET', `/templates/${a.id}`)).json()).toMatchObject({
      status: 404,
      code: 'template_not_found',
    })
  })

  it('replaces the draft only at the revision read (409 draft_revision_conflict)', async () => {
    const tpl = await create()
    const put = (revision: number, html: string) =>
      call('PUT', `/templates/${tpl.id}/draft`, { revision, content: { html }, data_schema: null })
    const ok = await put(1, '<p>two</p>')
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toMatchObject({ revision: 2, content: { html: '<p>two</p>' }, data_schema: null })
    const stale = await put(1, '<p>lost update</p>')
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'draft_revision_conflict', current_revision: 2 })
    expect((await call('GET', `/templates/${tpl.id}/draft`)).json().content.html).toBe('<p>two</p>')
    const bad = await call('PUT', `/templates/${tpl.id}/draft`, { revision: 2, content: { markdown: 'x' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ path: '/content/markdown' }))
    const noRevision = await call('PUT', `/templates/${tpl.id}/draft`, { content: { html: 'x' } })
    expect(noRevision.json().errors).toContainEqual(expect.objectContaining({ path: '/revision' }))
  })

  it('publishes numbered versions, makes each live and writes template.published', async () => {
    const tpl = await create()
    const first = await call('POST', `/templates/${tpl.id}/publish`, { notes: 'first' })
    expect(first.statusCode).toBe(201)
    expect(first.json()).toMatchObject({
      object: 'template_version',
      template_id: tpl.id,
      number: 1,
      live: true,
      notes: 'first',
      content: { html: '<h1>Invoice {{ number }}</h1>' },
      publish_run: { object: 'publish_run', status: 'passed' },
    })
    expect(first.json().id).toMatch(/^tv_/)
    expect(
      first.json().publish_run.steps.map((s: { name: string; status: string }) => [s.name, s.status]),
    ).toEqual([
      ['syntax', 'passed'],
      ['data_schema', 'passed'],
      ['sample_data', 'passed'],
      ['sample_render', 'passed'],
    ])
    const second = await call('POST', `/templates/${tpl.id}/publish`)
    expect(second.json().number).toBe(2)
    expect((await call('GET', `/templates/${tpl.id}`)).json()).toMatchObject({
      live_version: 2,
      latest_version: 2,
    })
    const events = await t.kernel.container.cradle.db.kysely
      .selectFrom('events')
      .selectAll()
      .where('workspace_id', '=', ws.workspace.id)
      .where('type', '=', 'template.published')
      .execute()
    const mine = events.map((e) => JSON.parse(e.data)).filter((d) => d.template_id === tpl.id)
    expect(mine.map((d) => d.version)).toEqual([1, 2])
    expect(mine[0]).toMatchObject({ version_id: first.json().id, template_name: 'Invoice' })
    const stale = await call('POST', `/templates/${tpl.id}/publish`, { revision: 7 })
    expect(stale.statusCode).toBe(409)
    expect(stale.json().code).toBe('draft_revision_conflict')
  })

  it('answers publish with 400 for a bad body, 404 for an unknown and 410 for a deleted template', async () => {
    const tpl = await create()
    const bad = await call('POST', `/templates/${tpl.id}/publish`, { notes: 5 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ path: '/notes' }))
    const unknown = await call('POST', '/templates/tpl_nope/publish')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('template_not_found')
    await call('DELETE', `/templates/${tpl.id}`)
    for (const [url, body] of [
      [`/templates/${tpl.id}/publish`, undefined],
      [`/templates/${tpl.id}/rollback`, { version: 1 }],
    ] as const) {
      const gone = await call('POST', url, body)
      expect(gone.statusCode).toBe(410)
      expect(gone.json().code).toBe('template_deleted')
    }
  })

  it('reports a syntax error at line 7 column 12 with its excerpt (422, publish_run)', async () => {
    const html = [
      '<html>',
      '<body>',
      '<h1>Invoice</h1>',
      '<table>',
      '<tr>',
      '<td>x</td>',
      '     <p>Hi {% bogus %}</p>',
      '</tr>',
    ].join('\n')
    const tpl = await create({ type: 'pdf_code', name: 'Broken', html })
    const res = await call('POST', `/templates/${tpl.id}/publish`)
    expect(res.statusCode).toBe(422)
    const body = res.json()
    expect(body).toMatchObject({
      code: 'template_syntax_error',
      status: 422,
      line: 7,
      column: 12,
      excerpt: '     <p>Hi {% bogus %}</p>',
    })
    expect(body.detail).toContain('line 7, column 12')
    expect(body.publish_run.status).toBe('failed')
    expect(body.publish_run.steps).toContainEqual(
      expect.objectContaining({
        name: 'syntax',
        status: 'failed',
        code: 'template_syntax_error',
        line: 7,
        column: 12,
      }),
    )
    expect(body.publish_run.steps).toContainEqual({ name: 'sample_render', status: 'skipped' })
    expect((await call('GET', `/templates/${tpl.id}`)).json().live_version).toBeNull()
  })

  it('refuses to publish an invalid data schema or sample data that breaks it (422)', async () => {
    const badSchema = await create({ ...INVOICE, data_schema: { type: 'no-such-type' } })
    const schema = await call('POST', `/templates/${badSchema.id}/publish`)
    expect(schema.statusCode).toBe(422)
    expect(schema.json().code).toBe('data_schema_mismatch')
    expect(schema.json().publish_run.steps).toContainEqual(
      expect.objectContaining({ name: 'data_schema', status: 'failed' }),
    )
    const badSample = await create({ ...INVOICE, sample_data: { total: 'ten' } })
    const sample = await call('POST', `/templates/${badSample.id}/publish`)
    expect(sample.statusCode).toBe(422)
    expect(sample.json()).toMatchObject({ code: 'data_schema_mismatch' })
    expect(sample.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/sample_data/number', code: 'required' }),
        expect.objectContaining({ path: '/sample_data/total', code: 'type' }),
      ]),
    )
    const runtime = await create({ type: 'pdf_code', name: 'r', html: '{% include "missing" %}' })
    const failed = await call('POST', `/templates/${runtime.id}/publish`)
    expect(failed.statusCode).toBe(422)
    expect(failed.json().publish_run.steps).toContainEqual(
      expect.objectContaining({ name: 'sample_render', status: 'failed', code: 'template_runtime_error' }),
    )
  })

  it('lists versions and reads one by number or tv_ id (404 version_not_found)', async () => {
    const tpl = await create()
    const v1 = (await call('POST', `/templates/${tpl.id}/publish`)).json()
    await call('POST', `/templates/${tpl.id}/publish`)
    const list = (await call('GET', `/templates/${tpl.id}/versions`)).json()
    expect(list.data.map((v: { number: number; live: boolean }) => [v.number, v.live])).toEqual([
      [2, true],
      [1, false],
    ])
    const page = (await call('GET', `/templates/${tpl.id}/versions?limit=1`)).json()
    expect(page).toMatchObject({ has_more: true, next_cursor: '2' })
    expect((await call('GET', `/templates/${tpl.id}/versions?limit=1&cursor=2`)).json().data[0].number).toBe(
      1,
    )
    expect((await call('GET', `/templates/${tpl.id}/versions/1`)).json().id).toBe(v1.id)
    expect((await call('GET', `/templates/${tpl.id}/versions/${v1.id}`)).json().number).toBe(1)
    const missing = await call('GET', `/templates/${tpl.id}/versions/9`)
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('version_not_found')
    expect((await call('GET', '/templates/tpl_nope/versions')).json().code).toBe('template_not_found')
  })

  it('rolls back live_version without a new version (200; 400; 404)', async () => {
    const tpl = await create()
    const v1 = (await call('POST', `/templates/${tpl.id}/publish`)).json()
    await call('POST', `/templates/${tpl.id}/publish`)
    const back = await call('POST', `/templates/${tpl.id}/rollback`, { version: 1 })
    expect(back.statusCode).toBe(200)
    expect(back.json()).toMatchObject({ live_version: 1, latest_version: 2 })
    expect(
      (await call('POST', `/templates/${tpl.id}/rollback`, { version: v1.id })).json().live_version,
    ).toBe(1)
    expect((await call('GET', `/templates/${tpl.id}/versions`)).json().data).toHaveLength(2)
    const missing = await call('POST', `/templates/${tpl.id}/rollback`, { version: 5 })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('version_not_found')
    const bad = await call('POST', `/templates/${tpl.id}/rollback`, {})
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ path: '/version', code: 'required' }))
    expect((await call('POST', '/templates/tpl_nope/rollback', { version: 1 })).json().code).toBe(
      'template_not_found',
    )
  })

  it('locks a template: draft replacement and delete answer 423 template_locked', async () => {
    const tpl = await create()
    expect((await call('POST', `/templates/${tpl.id}/lock`)).json().locked).toBe(true)
    const put = await call('PUT', `/templates/${tpl.id}/draft`, { revision: 1, content: { html: 'x' } })
    expect(put.statusCode).toBe(423)
    expect(put.json()).toMatchObject({ code: 'template_locked', status: 423 })
    const del = await call('DELETE', `/templates/${tpl.id}`)
    expect(del.statusCode).toBe(423)
    expect(del.json().code).toBe('template_locked')
    // publishing and rollback stay possible on a locked template
    expect((await call('POST', `/templates/${tpl.id}/publish`)).statusCode).toBe(201)
    expect((await call('POST', `/templates/${tpl.id}/unlock`)).json().locked).toBe(false)
    expect(
      (await call('PUT', `/templates/${tpl.id}/draft`, { revision: 1, content: { html: 'x' } })).statusCode,
    ).toBe(200)
  })

  it('deletes into the trash: reads answer 410 template_deleted, the sweep purges after 30 days', async () => {
    const tpl = await create()
    const del = await call('DELETE', `/templates/${tpl.id}`)
    expect(del.statusCode).toBe(200)
    expect(del.json().deleted_at).toBeTruthy()
    expect(Date.parse(del.json().purge_at) - Date.parse(del.json().deleted_at)).toBe(30 * 24 * 3600 * 1000)
    for (const url of [
      `/templates/${tpl.id}`,
      `/templates/${tpl.id}/draft`,
      `/templates/${tpl.id}/versions`,
    ]) {
      const res = await call('GET', url)
      expect(res.statusCode).toBe(410)
      expect(res.json()).toMatchObject({ code: 'template_deleted', status: 410 })
    }
    expect((await call('DELETE', `/templates/${tpl.id}`)).json().code).toBe('template_deleted')
    expect(
      (await call('GET', '/templates?limit=100')).json().data.map((x: { id: string }) => x.id),
    ).not.toContain(tpl.id)
    const { templateTrash } = t.kernel.container.cradle
    expect(await templateTrash.sweep(new Date(Date.now() + 29 * 24 * 3600 * 1000))).toBe(0)
    expect(await templateTrash.sweep(new Date(Date.now() + 31 * 24 * 3600 * 1000))).toBeGreaterThanOrEqual(1)
    expect((await call('GET', `/templates/${tpl.id}`)).json().code).toBe('template_not_found')
    expect((await call('DELETE', '/templates/tpl_nope')).statusCode).toBe(404)
  })

  it('serves the data schema of the live version, or of the draft before a first publish (404)', async () => {
    const tpl = await create()
    expect((await call('GET', `/templates/${tpl.id}/schema`)).json()).toEqual(INVOICE.data_schema)
    await call('POST', `/templates/${tpl.id}/publish`)
    await call('PUT', `/templates/${tpl.id}/draft`, {
      revision: 1,
      content: { html: 'x' },
      data_schema: { type: 'object' },
    })
    expect((await call('GET', `/templates/${tpl.id}/schema`)).json()).toEqual(INVOICE.data_schema)
    expect((await call('GET', `/templates/${tpl.id}/schema?version=draft`)).json()).toEqual({
      type: 'object',
    })
    const missing = await call('GET', '/templates/tpl_nope/schema')
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('template_not_found')
    expect((await call('GET', `/templates/${tpl.id}/schema?version=4`)).json().code).toBe('version_not_found')
  })

  it('keeps datasets with ds_ ids and one default', async () => {
    const tpl = await create()
    const base = `/templates/${tpl.id}/datasets`
    const a = await call('POST', base, { name: 'A', data: { number: 'A-1' }, is_default: true })
    expect(a.statusCode).toBe(201)
    expect(a.json()).toMatchObject({
      object: 'template_dataset',
      name: 'A',
      is_default: true,
      data: { number: 'A-1' },
    })
    expect(a.json().id).toMatch(/^ds_/)
    const b = (await call('POST', base, { name: 'B', data: { number: 'B-1' }, is_default: true })).json()
    const defaults = (await call('GET', base))
      .json()
      .data.filter((d: { is_default: boolean }) => d.is_default)
    expect(defaults.map((d: { id: string }) => d.id)).toEqual([b.id])
    const patched = await call('PATCH', `${base}/${a.json().id}`, {
      data: { number: 'A-2' },
      is_default: true,
    })
    expect(patched.json()).toMatchObject({ data: { number: 'A-2' }, is_default: true })
    expect((await call('GET', `${base}/${b.id}`)).json().is_default).toBe(false)
    expect((await call('DELETE', `${base}/${b.id}`)).statusCode).toBe(204)
    const gone = await call('GET', `${base}/${b.id}`)
    expect(gone.statusCode).toBe(404)
    expect(gone.json().code).toBe('not_found')
    expect((await call('POST', base, { data: {} })).statusCode).toBe(400)
  })
})
