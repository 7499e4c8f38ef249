import type { Config } from '../kernel/config.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { RenderRequest } from '../renders/render.ts'
import type { ProducerContext, ProducerWork, Production } from '../sdk/producer-contracts.ts'
import { checkEinvoiceRequest, einvoiceInputOf } from './einvoice-request.ts'
import { writeCheckedEinvoice } from './einvoice-writing.ts'

/**
 * Makes `einvoice` renders (SPEC 4.3): the profile's business rules on the model, its XML, then
 * every XML validator it lists (einvoice-writing.ts), answered as one `.xml` file.
 */
export class EinvoiceProducer implements ProducerWork {
  readonly #plugins: PluginSet
  readonly #config: Config

  constructor(deps: { plugins: PluginSet; config: Config }) {
    this.#plugins = deps.plugins
    this.#config = deps.config
  }

  validate(request: RenderRequest): void {
    checkEinvoiceRequest(request, this.#plugins.registries.einvoiceProfiles)
  }

  /** the profile's file name is the file's; the one `.xml` file is not drawn by an output plugin */
  drawsWithOutput(): boolean {
    return false
  }

  async produce(ctx: ProducerContext): Promise<Production> {
    const input = einvoiceInputOf(ctx.render.request)
    const profile = this.#plugins.registries.einvoiceProfiles.get(input.profile)
    if (!profile)
      throw new ProblemError(
        'render_failed',
        `This installation no longer offers the profile ${input.profile}.`,
      )
    const { xml, report } = await writeCheckedEinvoice(profile, input, '', {
      ...ctx,
      test: ctx.render.test,
      validationTimeoutSeconds: this.#config.einvoiceValidationTimeoutSeconds,
    })
    return {
      files: [
        {
          format: 'xml',
          contentType: 'application/xml',
          bytes: xml,
          filename: profile.filename(input.invoice, ctx.render.request.filename),
        },
      ],
      result: { conformance: { einvoice: report } },
    }
  }
}
