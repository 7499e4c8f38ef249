import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  STORAGE_PROBE_STEPS,
  StorageFailure,
  type StorageProvider,
  type StorageProviderFactory,
  type StoredObject,
} from '../sdk/storage-contracts.ts'
import {
  expectFailure,
  expectNoCredentials,
  expectProbeShape,
  expectSchemas,
  type ProviderSettings,
  shownText,
} from './provider-contract-checks.ts'
import { providerContractFixture } from './provider-contract-fixture.ts'

// The one suite every storage provider passes (DESIGN.md §9), ours or a third party's, against
// a real destination the subject sets up (a folder, a loopback S3 or SFTP server).

export interface StorageContractSubject {
  factory: StorageProviderFactory
  /** a destination that works */
  settings: ProviderSettings
  /** a destination that fails for good: refused credentials or a missing bucket */
  permanentFault: ProviderSettings
  /** a destination that fails for now: an unreachable endpoint, a mount not up */
  transientFault: ProviderSettings
  /** the object as its owner would read it (the bucket's own API), undefined when absent */
  readBack(stored: StoredObject, path: string): Promise<{ bytes: Buffer; contentType?: string } | undefined>
  close(): Promise<void>
}

const options = () => ({ signal: AbortSignal.timeout(20_000) })
let objectCount = 0
const uniquePath = (name: string) => `contract/${Date.now().toString(36)}-${++objectCount}/${name}`

export function runStorageContract(name: string, setup: () => Promise<StorageContractSubject>): void {
  describe(`storage contract: ${name}`, () => {
    const fx = providerContractFixture<StorageContractSubject, StorageProvider>(
      setup,
      'docsvc-storage-contract-',
    )
    const { provider, secrets } = fx

    it('declares write-only credential fields, schemas its settings fit, and limits', () => {
      expect(fx.subject.factory.id).toMatch(/^[a-z][a-z0-9_-]*$/)
      expectSchemas(fx.subject.factory, [
        fx.subject.settings,
        fx.subject.permanentFault,
        fx.subject.transientFault,
      ])
      const { limits } = provider()
      expect(limits.maxObjectBytes).toBeGreaterThan(0)
      expect(limits.maxPathBytes).toBeGreaterThan(0)
    })

    it('stores bytes and a file on disk so that the owner reads back the same bytes and content type', async () => {
      const uploader = provider()
      const pdfPath = uniquePath('invoice 7.pdf')
      const pdf = Buffer.from('%PDF-1.7\n% contract test\n')
      const stored = await uploader.put({ bytes: pdf }, pdfPath, 'application/pdf', options())
      expect(stored.size).toBe(pdf.length)
      expect(stored.location).toMatch(/\S/)
      expect(await fx.subject.readBack(stored, pdfPath)).toMatchObject({ bytes: pdf })
      const readBack = await fx.subject.readBack(stored, pdfPath)
      if (readBack?.contentType !== undefined) expect(readBack.contentType).toBe('application/pdf')

      const onDisk = path.join(fx.scratch, 'part.png')
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
      writeFileSync(onDisk, png)
      const pngPath = uniquePath('page-1.png')
      const fromDisk = await uploader.put({ path: onDisk, size: png.length }, pngPath, 'image/png', options())
      expect((await fx.subject.readBack(fromDisk, pngPath))?.bytes).toEqual(png)
    })

    it('replaces an object already at the path', async () => {
      const uploader = provider()
      const at = uniquePath('report.html')
      await uploader.put({ bytes: Buffer.from('first') }, at, 'text/html', options())
      const second = await uploader.put({ bytes: Buffer.from('second') }, at, 'text/html', options())
      expect((await fx.subject.readBack(second, at))?.bytes.toString()).toBe('second')
    })

    it('refuses paths that leave or break the destination, for good', async () => {
      const uploader = provider()
      for (const bad of [
        '../escape.pdf',
        '/absolute.pdf',
        'a//b.pdf',
        'a/./b.pdf',
        'a\\b.pdf',
        'nul\u0000.pdf',
        '',
      ]) {
        await expectFailure(
          uploader.put({ bytes: Buffer.from('x') }, bad, 'application/pdf', options()),
          StorageFailure,
          'permanent',
          'invalid_path',
        )
      }
    })

    it('refuses an object over its size limit, for good, before reading it', async () => {
      const uploader = provider()
      const small = path.join(fx.scratch, 'declared-large.bin')
      writeFileSync(small, 'x')
      const at = uniquePath('too-large.bin')
      const size = uploader.limits.maxObjectBytes + 1
      await expectFailure(
        uploader.put({ path: small, size }, at, 'application/octet-stream', options()),
        StorageFailure,
        'permanent',
        'too_large',
      )
    })

    it('passes its probe: write, read back, delete, each ok', async () => {
      const report = await provider().probe(options())
      expectProbeShape(report, STORAGE_PROBE_STEPS)
      expect(report.ok).toBe(true)
    })

    it('fails its probe on a broken destination, saying which step, without showing a credential', async () => {
      for (const fault of [fx.subject.permanentFault, fx.subject.transientFault]) {
        const report = await provider(fault).probe(options())
        expectProbeShape(report, STORAGE_PROBE_STEPS)
        expect(report.ok).toBe(false)
        expectNoCredentials('the probe report', JSON.stringify(report), secrets())
      }
    })

    it('classifies failures as permanent or transient, without showing a credential', async () => {
      const file = { bytes: Buffer.from('%PDF-1.7\n') }
      const permanent = await expectFailure(
        provider(fx.subject.permanentFault).put(file, uniquePath('a.pdf'), 'application/pdf', options()),
        StorageFailure,
        'permanent',
      )
      const transient = await expectFailure(
        provider(fx.subject.transientFault).put(file, uniquePath('b.pdf'), 'application/pdf', options()),
        StorageFailure,
        'transient',
      )
      expectNoCredentials('a permanent failure', shownText(permanent), secrets())
      expectNoCredentials('a transient failure', shownText(transient), secrets())
    })

    it('stops a put whose signal is aborted', async () => {
      const signal = AbortSignal.abort()
      const at = uniquePath('aborted.pdf')
      await expect(
        provider().put({ bytes: Buffer.from('x') }, at, 'application/pdf', { signal }),
      ).rejects.toThrow()
    })
  })
}
