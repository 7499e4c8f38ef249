// @ts-check
// A third-party docsvc plugin that adds delivery targets through the SDK's contracts: a
// storage provider (a drop folder on a shared mount) and an email provider (SMTP). It imports
// nothing from docsvc but `@docsvc/core/sdk`; its tests run the contract kits of
// `@docsvc/core/testing` against a real folder and a loopback SMTP server.
import { definePlugin } from '@docsvc/core/sdk'
import { folderStorage } from './folder-storage.js'
import { smtpEmail } from './smtp-email.js'

export { accessFileFor, folderStorage } from './folder-storage.js'
export { smtpEmail } from './smtp-email.js'

export const deliveryPlugin = definePlugin({
  id: 'delivery-example',
  apiVersion: '^1',
  provides: { storageProviders: [folderStorage.id], emailProviders: [smtpEmail.id] },
  register({ registries }) {
    registries.storageProviders.add(folderStorage.id, folderStorage)
    registries.emailProviders.add(smtpEmail.id, smtpEmail)
  },
})

export default deliveryPlugin
