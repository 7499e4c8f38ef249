import type { Invoice } from './model/invoice-schema.ts'
import type { ProfileId } from './model/profile-matrix.ts'

/** What a reader makes of a CII or UBL document. */
export interface ReadInvoice {
  invoice: Invoice
  /** BT-24 as the document states it */
  guideline: string | undefined
  /** the profile of that BT-24, when it is one of the six */
  profile: ProfileId | undefined
  /** the document says it is a test (CII TestIndicator) */
  test: boolean
  /** paths of elements and attributes the model does not hold (yet): never dropped silently */
  unread: string[]
}

/** A model as a reader builds it: any field may be undefined until `compact` drops it. */
export type Draft<T> = T extends readonly (infer U)[]
  ? Draft<U>[]
  : T extends object
    ? { [K in keyof T]?: Draft<T[K]> | undefined }
    : T
