import type { ReadInvoice } from '../read-result.ts'
import type { XmlNode } from '../xml/xml-tree.ts'

export function readUbl(root: XmlNode): ReadInvoice {
  throw new Error(`UBL reading is not built yet (${root.name})`)
}
