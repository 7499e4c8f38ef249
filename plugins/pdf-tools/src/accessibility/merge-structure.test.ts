import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, type PDFRef } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { mergeStructureTrees } from './merge-structure.ts'

// The tree merge on small hand-made tagged files: what Chromium does not produce (RoleMap,
// loops in the tree) but another producer's PDF may.

async function taggedDoc(customMapsTo: string, loop = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage()
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(0))
  const rootRef = doc.context.nextRef()
  const element = doc.context.obj({ Type: 'StructElem', S: 'Custom', P: rootRef, Pg: page.ref, K: 0 })
  const elementRef = doc.context.register(element)
  // a kid that leads back to its own element: a reader must not loop
  if (loop) element.set(PDFName.of('K'), doc.context.obj([PDFNumber.of(0), elementRef]))
  doc.context.assign(
    rootRef,
    doc.context.obj({
      Type: 'StructTreeRoot',
      K: elementRef,
      RoleMap: { Custom: customMapsTo },
      ParentTree: { Nums: [0, [elementRef]] },
      ParentTreeNextKey: 1,
    }),
  )
  doc.catalog.set(PDFName.of('StructTreeRoot'), rootRef)
  return doc.save()
}

async function pagesOf(sources: Uint8Array[]): Promise<Uint8Array> {
  const merged = await PDFDocument.create()
  for (const bytes of sources) {
    const source = await PDFDocument.load(bytes)
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page)
  }
  return merged.save()
}

describe('merging structure trees', () => {
  it("renames a custom type two sources map differently, and shifts the second source's keys", async () => {
    const sources = [await taggedDoc('P'), await taggedDoc('H1')]
    const out = await mergeStructureTrees(await pagesOf(sources), sources)
    expect(out).toMatchObject({ tagged: 2, untagged: 0 })
    const doc = await PDFDocument.load(out.pdf!)
    const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict)
    const roles = root.lookup(PDFName.of('RoleMap'), PDFDict)
    expect(roles.get(PDFName.of('Custom'))).toBe(PDFName.of('P'))
    expect(roles.get(PDFName.of('Custom_2'))).toBe(PDFName.of('H1'))
    expect(doc.getPages().map((p) => p.node.get(PDFName.of('StructParents'))?.toString())).toEqual(['0', '1'])
    // key 1 lists the second source's element, now a Custom_2 on page 2
    const nums = root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray)
    const second = doc.context.lookup(nums.lookup(3, PDFArray).get(0) as PDFRef, PDFDict)
    expect(second.get(PDFName.of('S'))).toBe(PDFName.of('Custom_2'))
    expect(second.get(PDFName.of('Pg'))).toBe(doc.getPages()[1]!.ref)
  })

  it('copies a tree whose elements lead back to themselves without looping', async () => {
    const sources = [await taggedDoc('P', true), await taggedDoc('P')]
    const out = await mergeStructureTrees(await pagesOf(sources), sources)
    expect(out.tagged).toBe(2)
  })

  it('leaves a merge of untagged sources alone', async () => {
    const plain = await PDFDocument.create()
    plain.addPage()
    const bytes = await plain.save()
    expect(await mergeStructureTrees(await pagesOf([bytes, bytes]), [bytes, bytes])).toEqual({
      pdf: undefined,
      tagged: 0,
      untagged: 2,
    })
  })
})
