import { asClass, Lifetime } from 'awilix'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { ApiKeyRepository } from './api-key-repository.ts'
import { ApiKeyService, type AuthContext } from './api-key-service.ts'
import { KeyUsageRecorder } from './key-usage-recorder.ts'
import './api-key-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the keys' tables, for this folder and tests; other features use apiKeyService */
    apiKeyRepository: ApiKeyRepository
    apiKeyService: ApiKeyService
    keyUsageRecorder: KeyUsageRecorder
    /** request scope only: the authenticated caller */
    auth: AuthContext
  }
}

/** API keys (SPEC 2.3, 5): authentication, scopes, rolling, and each key's hourly usage. */
export const apiKeysModule: FeatureModule = {
  id: 'api-keys',
  register({ container }) {
    container.register({
      ...singletons({ apiKeyRepository: ApiKeyRepository, apiKeyService: ApiKeyService }),
      // buffered usage counts are flushed when the container is disposed
      keyUsageRecorder: asClass(KeyUsageRecorder, {
        lifetime: Lifetime.SINGLETON,
        dispose: (r) => r.dispose(),
      }),
    })
  },
}
