import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { envName, loadConfigSection, maskSecrets } from './config-loader.ts'

describe('envName', () => {
  it('joins the prefix and the camelCase path as UPPER_SNAKE', () => {
    expect(envName('DOCSVC', ['publicUrl'])).toBe('DOCSVC_PUBLIC_URL')
    expect(envName('DOCSVC', ['smtp', 'maxPerSecond'])).toBe('DOCSVC_SMTP_MAX_PER_SECOND')
    expect(envName('DOCSVC_PLUGIN', ['storage_s3', 'bucket'])).toBe('DOCSVC_PLUGIN_STORAGE_S3_BUCKET')
  })
})

describe('loadConfigSection', () => {
  const Schema = Type.Object({
    name: Type.String({ minLength: 1 }),
    count: Type.Integer({ minimum: 1, default: 2 }),
    enabled: Type.Boolean({ default: false }),
    hosts: Type.Array(Type.String({ minLength: 3 }), { default: [] }),
    token: Type.String({ minLength: 8, secret: true, default: 'changeme' }),
    limits: Type.Object({ perMinute: Type.Integer({ default: 60 }) }, { default: {} }),
  })
  const load = (env: NodeJS.ProcessEnv, file?: Record<string, unknown>) =>
    loadConfigSection(Schema, { env, prefix: 'APP', ...(file ? { file } : {}) })

  it('parses env text by the schema: integers, booleans, comma lists, nested objects', () => {
    const { value, problems } = load({
      APP_NAME: 'x',
      APP_COUNT: '5',
      APP_ENABLED: 'on',
      APP_HOSTS: 'one.example, two.example,',
      APP_LIMITS_PER_MINUTE: '120',
    })
    expect(problems).toEqual([])
    expect(value).toEqual({
      name: 'x',
      count: 5,
      enabled: true,
      hosts: ['one.example', 'two.example'],
      token: 'changeme',
      limits: { perMinute: 120 },
    })
  })

  it('names the env var of a missing required field', () => {
    expect(load({}).problems).toEqual(['APP_NAME: is required'])
  })

  it('names the list variable, not an item index, for a bad list item', () => {
    expect(load({ APP_NAME: 'x', APP_HOSTS: 'ok.example,no' }).problems).toEqual([
      'APP_HOSTS: must not have fewer than 3 characters (got "ok.example,no")',
    ])
  })

  it('does not echo the value of a secret field', () => {
    const { problems } = load({ APP_NAME: 'x', APP_TOKEN: 'short' })
    expect(problems).toEqual(['APP_TOKEN: must not have fewer than 8 characters'])
  })

  it('puts a path prefix between the prefix and the field', () => {
    const { problems } = loadConfigSection(Schema, { env: {}, prefix: 'DOCSVC_PLUGIN', path: ['hello'] })
    expect(problems).toEqual(['DOCSVC_PLUGIN_HELLO_NAME: is required'])
  })

  it('takes file values underneath env and reports unknown file keys, nested ones too', () => {
    const { value, problems } = load(
      { APP_COUNT: '9' },
      { name: 'from-file', count: 3, limits: { perMinute: 10, perHour: 1 }, colour: 'red' },
    )
    expect(value).toMatchObject({ name: 'from-file', count: 9, limits: { perMinute: 10 } })
    expect(problems).toEqual([
      'config file: unknown setting "limits.perHour"',
      'config file: unknown setting "colour"',
    ])
  })
})

describe('maskSecrets', () => {
  it('replaces non-empty secret fields with ***, nested ones too', () => {
    const Schema = Type.Object({
      user: Type.String(),
      password: Type.String({ secret: true }),
      smtp: Type.Object({ pass: Type.String({ secret: true }), host: Type.String() }),
      empty: Type.String({ secret: true }),
    })
    const masked = maskSecrets(
      { user: 'u', password: 'p', smtp: { pass: 'q', host: 'h' }, empty: '' },
      Schema as never,
    )
    expect(masked).toEqual({ user: 'u', password: '***', smtp: { pass: '***', host: 'h' }, empty: '' })
  })
})
