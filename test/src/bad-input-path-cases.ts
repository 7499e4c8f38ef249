import type { BadInputCase, BadInputTarget } from './bad-input-case.ts'
import type { SeededRandom } from './seeded-random.ts'
import { sendRequest } from './wire-client.ts'

// Cases aimed at the request target: unicode, emoji and broken percent-encoding in paths,
// path parameters and query strings.

const BAD_PERCENT = [
  '%',
  '%%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80',
  '%FF',
  '%00',
  '%u00e9',
  '%F0%9F%98',
  '%2',
]
const BAD_QUERY_VALUES = [
  'abc',
  '1e400',
  '-1',
  '0',
  '101',
  '1.5',
  '',
  '%ZZ',
  '99999999999999999999',
  '%F0%9F%98%80',
  'NaN',
  '[]',
]

export function pathsAndQueries(r: SeededRandom, t: BadInputTarget, count: number): BadInputCase[] {
  const { port } = t
  const auth: [string, string] = ['Authorization', `Bearer ${t.key}`]
  const makers: [string, () => BadInputCase][] = [
    [
      'raw UTF-8 path',
      () => ({
        label: 'raw UTF-8 path',
        send: () =>
          sendRequest(
            port,
            { target: Buffer.from(`/v1/${r.unicode(r.int(1, 20))}`.replace(/[\s#?]/g, '')) },
            { halfClose: true },
          ),
      }),
    ],
    // all-ASCII draws are a fine query: 200
    [
      'raw UTF-8 query',
      () => ({
        label: 'raw UTF-8 query',
        send: () =>
          sendRequest(
            port,
            {
              target: Buffer.from(`/v1/probe?q=${r.unicode(r.int(1, 20)).replace(/[\s#&]/g, '')}`),
              headers: [auth],
            },
            { halfClose: true },
          ),
        mayPass: true,
      }),
    ],
    [
      'encoded unicode path',
      () => {
        const target = `/v1/${encodeURIComponent(r.unicode(r.int(1, 20)))}`
        return {
          label: `encoded unicode path ${target.slice(0, 50)}`,
          send: () => sendRequest(port, { target, headers: [auth] }),
        }
      },
    ],
    [
      'emoji error page',
      () => {
        const target = `/docs/errors/${encodeURIComponent(r.unicode(r.int(1, 8)))}`
        return {
          label: `error page ${target.slice(0, 50)}`,
          send: () => sendRequest(port, { target }),
          expect: { status: (s: number) => s === 404 || s === 400 },
        }
      },
    ],
    [
      'bad percent-encoding in path',
      () => {
        const target = `${r.pick(['/v1/account', '/docs/errors/', '/v1/probe/', '/v1/reference/static/', '/v1/'])}${r.pick(BAD_PERCENT)}`
        return {
          label: `bad percent path ${target}`,
          send: () => sendRequest(port, { target, headers: r.next() < 0.5 ? [auth] : [] }),
        }
      },
    ],
    [
      'bad query value',
      () => {
        const target = `/v1/probe?${r.pick(['limit', 'order'])}=${r.pick(BAD_QUERY_VALUES)}`
        return {
          label: `bad query ${target}`,
          send: () => sendRequest(port, { target, headers: [auth] }),
          expect: { status: 400, codes: ['validation_error'] },
        }
      },
    ],
    [
      'query oddities',
      () => {
        const query = r.pick([
          'limit=1&limit=2',
          `q=${'q'.repeat(300)}`,
          'unknown=1',
          `${r.pick(BAD_PERCENT)}=1`,
          'limit',
          '&&&',
          '=',
          `q=${r.pick(BAD_PERCENT)}`,
        ])
        return {
          label: `odd query ?${query.slice(0, 40)}`,
          send: () => sendRequest(port, { target: `/v1/probe?${query}`, headers: [auth] }),
          mayPass: true,
        }
      },
    ],
    [
      'prototype keys in query',
      () => {
        const query = r.pick([
          '__proto__=x',
          '__proto__[limit]=5',
          'constructor[prototype][x]=1',
          'toString=1',
          'hasOwnProperty=1',
        ])
        return {
          label: `query ?${query}`,
          send: () => sendRequest(port, { target: `/v1/probe?${query}`, headers: [auth] }),
          mayPass: true,
        }
      },
    ],
    [
      'odd path shapes',
      () => {
        const target = r.pick([
          '//v1//account',
          '/v1/./account',
          '/v1/../v1/account',
          '/v1\\account',
          '/v1/account#frag',
          '/v1/account;x=1',
          '/v1/%2faccount',
          `/docs/errors/${'x'.repeat(500)}`,
          `/v1/probe/${'i'.repeat(500)}`,
        ])
        return { label: `odd path ${target.slice(0, 40)}`, send: () => sendRequest(port, { target }) }
      },
    ],
    [
      'bad path parameter',
      () => {
        const target = `/v1/probe/${r.pick(['itm_', 'ITM_1', 'itm_1!', encodeURIComponent(r.unicode(4)), 'itm_1%00', `itm_${'a'.repeat(25)}`])}`
        return {
          label: `bad path parameter ${target.slice(0, 50)}`,
          send: () =>
            sendRequest(port, {
              method: 'POST',
              target,
              headers: [auth, ['Content-Type', 'application/json']],
              body: '{"name":"a"}',
            }),
          expect: { status: 400, codes: ['validation_error'] },
        }
      },
    ],
  ]
  return Array.from({ length: count }, (_, i) => {
    const [, make] = makers[i % makers.length] as [string, () => BadInputCase]
    return make()
  })
}
