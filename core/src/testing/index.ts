export { readStream } from '../files/read-stored-file.ts'
export { closedPort } from './closed-port.ts'
export { type EinvoiceProfileSubject, runEinvoiceProfileContract } from './einvoice-contract.ts'
export { type EmailContractSubject, type ReceivedEmail, runEmailContract } from './email-contract.ts'
export { fakeInputContext } from './fake-input-context.ts'
export { runFileStoreContract } from './file-store-contract.ts'
export { ghostscriptPdf, qpdfMerge, qpdfRewrite } from './foreign-pdfs.ts'
export { loadTestPlugins, type PluginSet, type TestPluginLoad, testPluginHost } from './load-test-plugins.ts'
export { memoryLogger } from './memory-logger.ts'
export {
  type ConformanceValidatorSubject,
  type PdfPostProcessorSubject,
  runConformanceValidatorContract,
  runPdfPostProcessorContract,
} from './pdf-pipeline-contract.ts'
export {
  mutoolOpens,
  pdfAttachment,
  pdfAttachmentNames,
  pdfFonts,
  pdfInfo,
  pdfInfoWithPassword,
  pdfPagePng,
  pdfPages,
  pdfPageTexts,
  pdfText,
  pdfWordBoxes,
  pdfXmp,
  qpdfCheck,
  qpdfReport,
} from './pdf-readers.ts'
export type { ProviderSettings } from './provider-contract-checks.ts'
export { type QueueContractStore, runQueueContract } from './queue-contract.ts'
export { type RecordedEvent, recordedEvents } from './recorded-events.ts'
export { standardPlugin, standardProviders } from './standard-plugin.ts'
export { runStorageContract, type StorageContractSubject } from './storage-contract.ts'
export { storedText } from './stored-text.ts'
export { createPgSchema, TEST_DATABASE_URL, TEST_DIALECTS, type TestDialect } from './test-databases.ts'
export {
  startTestKernel,
  type TestKernel,
  type TestKernelOptions,
  type TestWorkspace,
} from './test-kernel.ts'
export { testOutboundGuard } from './test-outbound-guard.ts'
