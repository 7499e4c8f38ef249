import { Type } from 'typebox'

// Headers the browser or the proxy owns: setting them would break the connection or the guard.
const FORBIDDEN_HEADERS = [
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]

// JSON Schema patterns have no flags, so case-insensitivity is spelled out per letter.
const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('')

/** RFC 9110 token characters. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]"

const HEADER_NAME = `^(?!(?:${FORBIDDEN_HEADERS.map(anyCase).join('|')})$)${TOKEN}{1,256}$`
const NO_LINE_BREAKS = '^[^\\r\\n\\u0000]*$'

export const MAX_HEADERS = 20
export const MAX_COOKIES = 50

export const HttpOptionsSchema = Type.Object(
  {
    basic_auth: Type.Optional(
      Type.Object(
        {
          username: Type.String({
            minLength: 1,
            maxLength: 256,
            pattern: '^[^:\\r\\n\\u0000]*$',
            description: 'User name (no colon).',
            examples: ['reports'],
          }),
          password: Type.String({
            maxLength: 1024,
            pattern: NO_LINE_BREAKS,
            description: 'Password.',
            examples: ['s3cret-passphrase'],
          }),
        },
        { additionalProperties: false, description: "HTTP Basic credentials sent to the page's site." },
      ),
    ),
    headers: Type.Optional(
      Type.Record(
        Type.String({ pattern: HEADER_NAME }),
        Type.String({ maxLength: 8192, pattern: NO_LINE_BREAKS }),
        {
          maxProperties: MAX_HEADERS,
          // Record only lists the allowed names; anything else (Host, Connection, ...) is refused
          additionalProperties: false,
          description: `Extra request headers for the page, at most ${MAX_HEADERS}; no Host or hop-by-hop headers.`,
          examples: [{ 'Accept-Language': 'de-DE' }],
        },
      ),
    ),
    cookies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({
              pattern: `^${TOKEN}{1,256}$`,
              description: 'Cookie name.',
              examples: ['session'],
            }),
            value: Type.String({
              maxLength: 4096,
              pattern: '^[^;\\r\\n\\u0000]*$',
              description: 'Cookie value.',
              examples: ['d41d8cd98f00b204'],
            }),
            domain: Type.Optional(
              Type.String({
                maxLength: 253,
                pattern: '^\\.?[A-Za-z0-9.-]+$',
                description: "Domain the cookie is sent to (default: the page's host).",
                examples: ['.example.com'],
              }),
            ),
            path: Type.Optional(
              Type.String({
                maxLength: 1024,
                pattern: '^/[^;\\r\\n\\u0000]*$',
                description: 'Path the cookie is sent to (default /).',
                examples: ['/reports'],
              }),
            ),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_COOKIES, description: `Cookies set before the page loads, at most ${MAX_COOKIES}.` },
      ),
    ),
  },
  { additionalProperties: false, description: 'How the page is fetched: credentials, headers and cookies.' },
)
