import type { FileUrlSigner } from '../files/file-url-signer.ts'
import type { Render, RenderFile } from './render.ts'

/**
 * Signed, expiring URLs for hosted render files (backed by the files module's signer). They live
 * for the render's `expires_in`, else an hour: the one place that rule is kept.
 */
export interface RenderFileLinks {
  link(render: Render, file: RenderFile, download?: boolean): { url: string; expires_at: string }
}

const DEFAULT_LINK_SECONDS = 3600

/** Links through the files module's signer (`/files/<token>`). */
export class SignedRenderFileLinks implements RenderFileLinks {
  readonly #signer: FileUrlSigner
  constructor({ fileUrlSigner }: { fileUrlSigner: FileUrlSigner }) {
    this.#signer = fileUrlSigner
  }

  link(render: Render, file: RenderFile, download = false) {
    return this.#signer.link({
      key: file.storage_key,
      contentType: file.content_type,
      filename: file.filename,
      download,
      expiresInSeconds: render.request.expires_in ?? DEFAULT_LINK_SECONDS,
    })
  }
}
