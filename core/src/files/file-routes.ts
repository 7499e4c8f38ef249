import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { problemResponse } from '../http/schemas/problem-schema.ts'
import type { Cradle } from '../kernel/container.ts'
import { sendStoredFile } from './file-response.ts'
import { FILE_URL_PATH } from './file-url-signer.ts'

const schema = {
  tags: ['files'],
  summary: 'Download a hosted file through its signed URL',
  description:
    'The URL comes from a render (`files[].url`, or the redirect of GET /v1/renders/{id}/files/{file_id}). ' +
    'It needs no API key and stops working when it expires.',
  // the signature in the URL is the credential
  security: [],
  params: {
    type: 'object',
    required: ['token'],
    // no pattern: a malformed token must answer 404 like a forged one, not 400
    properties: {
      token: {
        type: 'string',
        description: "The signed token at the end of the file's URL.",
        examples: [
          'eyJrIjoid3NfMDFrYXozL3JuZF8wMWthejNtOHE0cjd0OXYydzV4Nnk4ejBhYi9pbnZvaWNlLnBkZiIsImMiOiJhcHBsaWNhdGlvbi9wZGYiLCJuIjoiaW52b2ljZS5wZGYiLCJkIjoiaSIsImUiOjE3NjcyMjU2MDB9.zKKhpP5oPTF6-rfiqqOUQi3m0UA1biBFJ0adnvV9RXk',
        ],
      },
    },
  },
  response: {
    200: {
      description: 'The file, with Content-Type, Content-Length and Content-Disposition',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    },
    304: { description: 'Not modified (If-None-Match)', type: 'null' },
    404: problemResponse('Unknown, malformed or tampered URL', ['not_found']),
    410: problemResponse('URL expired, or the file was deleted', ['file_expired']),
  },
}

/** The public side of hosted files: `GET|HEAD /files/:token`, outside /v1 and without a key. */
export async function fileRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const serve = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const { fileUrlSigner, fileStore } = container.cradle
    const claims = fileUrlSigner.verify(request.params.token)
    return sendStoredFile(request, reply, fileStore, {
      ...claims,
      maxAgeSeconds: (claims.expiresAt.getTime() - Date.now()) / 1000,
    })
  }
  // HEAD first and explicit: Fastify's own HEAD would read the whole file to throw it away
  app.head(`${FILE_URL_PATH}/:token`, { schema, config: { access: 'public' } }, serve)
  app.get(`${FILE_URL_PATH}/:token`, { schema, exposeHeadRoute: false, config: { access: 'public' } }, serve)
}
