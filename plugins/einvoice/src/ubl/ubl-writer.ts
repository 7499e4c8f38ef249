import type { EinvoiceWriteOptions } from '@docsvc/core/sdk'
import type { Invoice } from '../model/invoice-schema.ts'
import type { ProfileId } from '../model/profile-matrix.ts'

export function writeUbl(
  _inv: Invoice,
  profile: ProfileId,
  _options: Pick<EinvoiceWriteOptions, 'test'>,
): Buffer {
  throw new Error(`UBL writing is not built yet (${profile})`)
}
