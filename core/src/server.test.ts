import { describe, expect, it } from 'vitest'
import { loadConfig } from './kernel/config.ts'
import { reachableBaseUrl } from './server.ts'

const bound = (port: number) => ({ address: '0.0.0.0', family: 'IPv4', port })

describe('reachableBaseUrl', () => {
  it('uses the port actually bound when the public URL is the default', () => {
    expect(reachableBaseUrl(loadConfig({ DOCSVC_PORT: '0' }), bound(41234))).toBe('http://localhost:41234')
    expect(reachableBaseUrl(loadConfig({}), bound(3000))).toBe('http://localhost:3000')
  })

  it('names a specific listen host, bracketing IPv6', () => {
    expect(reachableBaseUrl(loadConfig({ DOCSVC_HOST: '127.0.0.1', DOCSVC_PORT: '0' }), bound(5000))).toBe(
      'http://127.0.0.1:5000',
    )
    expect(reachableBaseUrl(loadConfig({ DOCSVC_HOST: '::1', DOCSVC_PORT: '0' }), bound(5000))).toBe(
      'http://[::1]:5000',
    )
  })

  it('keeps an operator-set public URL', () => {
    const config = loadConfig({ DOCSVC_PUBLIC_URL: 'https://docs.example.com/', DOCSVC_PORT: '0' })
    expect(reachableBaseUrl(config, bound(5000))).toBe('https://docs.example.com')
  })
})
