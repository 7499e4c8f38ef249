import { rm } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { AwilixContainer } from 'awilix'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { documentedBy } from '../http/plugin-schema-slots.ts'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import type { Cradle } from '../kernel/container.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { UPLOAD_MAX_BYTES, uploadView } from './upload.ts'
import { receiveUpload, type SpooledUpload } from './upload-receiver.ts'

const UploadForm = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: 'The file: a PDF, or CSV text. Its name and type are kept with the upload.',
      // a whole CSV file: the one kind of file an example can show as text
      examples: ['name,total\nAda,42.50\n'],
    }),
  },
  { required: ['file'], additionalProperties: false },
)

const UploadRecord = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The upload: its `id` (upl_...), kept 24 hours, to use as `upload_id` in the PDF tools.',
  },
)

const received = new WeakMap<FastifyRequest, SpooledUpload>()

/** POST /v1/uploads (SPEC 4.9): one multipart file, streamed to the file store, kept 24 hours. */
export async function uploadRoutes(
  app: FastifyInstance,
  { container }: { container: AwilixContainer<Cradle> },
) {
  const { uploadService, config } = container.cradle
  const spoolDir = path.join(config.dataDir, 'tmp', 'uploads')
  // the body reaches the route as the stream the /v1 guard limits to the plan's body size; the
  // route reads the form itself (busboy), so the file is never held in memory
  app.addContentTypeParser('multipart/form-data', (_request, payload, done) => done(null, payload))

  app.post(
    '/uploads',
    {
      config: { scope: 'render:write' },
      schema: {
        tags: ['uploads'],
        summary: 'Upload a file (a PDF for the PDF tools, a CSV for batches)',
        description:
          "multipart/form-data with one file in the field `file`, at most 50 MB (and the plan's body limit). PDF and CSV text are taken; other types answer 415.",
        consumes: ['multipart/form-data'],
        // the route reads the form itself (preValidation below): the schema is for the document
        body: documentedBy({ of: 'schema', schema: UploadForm }, Type.Any()),
        response: {
          201: UploadRecord,
          ...stdResponses(),
          400: problemResponse('No file, or more than one, or an empty one'),
          413: problemResponse('File larger than 50 MB or the plan allows'),
          415: problemResponse('Not multipart/form-data, or a file type the service does not take'),
        },
      },
      // the body is read before the idempotency check, so the fingerprint covers the file's bytes
      preValidation: async (request) => {
        if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) {
          throw new ProblemError(
            'unsupported_media_type',
            'Send the file as multipart/form-data in the field file.',
          )
        }
        const limit = Math.min(UPLOAD_MAX_BYTES, request.plan?.limits.max_body_bytes ?? UPLOAD_MAX_BYTES)
        const spooled = await receiveUpload(request.body as Readable, request.headers, spoolDir, limit)
        received.set(request, spooled)
        request.bodyDigest = spooled.bodyDigest
      },
      // the spooled copy goes whatever happened: stored, replayed or failed
      onResponse: async (request) => {
        const spooled = received.get(request)
        if (spooled) await rm(spooled.path, { force: true })
      },
    },
    async (request, reply) => {
      const upload = await uploadService.create(request.auth!, received.get(request)!)
      return reply.code(201).send(uploadView(upload))
    },
  )
}
