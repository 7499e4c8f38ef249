import type { FileUrlSigner } from '../files/file-url-signer.ts'
import type { RenderFile } from './render.ts'

/** Signed, expiring URLs for hosted render files (backed by the files module's signer). */
export interface RenderFileLinks {
  link(
    file: RenderFile,
    options: { download: boolean; expiresInSeconds: number },
  ): { url: string; expires_at: string }
}

export const DEFAULT_LINK_SECONDS = 3600

/** Links through the files module's signer (`/files/<token>`). */
export class SignedRenderFileLinks implements RenderFileLinks {
  readonly #signer: FileUrlSigner
  constructor({ fileUrlSigner }: { fileUrlSigner: FileUrlSigner }) {
    this.#signer = fileUrlSigner
  }

  link(file: RenderFile, options: { download: boolean; expiresInSeconds: number }) {
    return this.#signer.link({
      key: file.storage_key,
      contentType: file.content_type,
      filename: file.filename,
      download: options.download,
      expiresInSeconds: options.expiresInSeconds,
    })
  }
}
