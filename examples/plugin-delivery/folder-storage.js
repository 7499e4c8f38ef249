// @ts-check
// A storage provider of the example plugin: a drop folder on a shared mount (an NFS or SMB
// share that another system picks files up from). The folder holds a `.docsvc-access` file with
// the SHA-256 (hex) of the destination's access token, so a destination writes only into a
// folder whose owner handed out that token; the token itself is a write-only credential.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'
import {
  CredentialField,
  checkStoragePut,
  runProbeSteps,
  STORAGE_PROBE_STEPS,
  StorageFailure,
} from '@docsvc/core/sdk'
import { Type } from 'typebox'

export const ACCESS_FILE = '.docsvc-access'

const MiB = 1024 * 1024

export const FolderConfig = Type.Object({
  /** the mounted folder, absolute */
  root: Type.String({ minLength: 1, maxLength: 1024, pattern: '^/' }),
  max_object_bytes: Type.Integer({ minimum: 1, maximum: 5 * 1024 * MiB, default: 512 * MiB }),
})

export const FolderCredentials = Type.Object({
  access_token: CredentialField({ minLength: 16, maxLength: 200 }),
})

/** @typedef {import('typebox').Static<typeof FolderConfig>} FolderSettings */

/** segments a Windows or macOS share also takes */
const SEGMENT = /^[^<>:"|?*]{1,255}$/

/**
 * What the folder's errors mean for a retry. A missing root is transient: on a shared mount it
 * usually means the mount is not up (yet); a refused write or a wrong token is for good.
 * @param {unknown} error
 * @param {string} doing
 */
function classify(error, doing) {
  if (error instanceof StorageFailure) return error
  const code = /** @type {NodeJS.ErrnoException} */ (error)?.code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new StorageFailure('permanent', 'access_denied', `${doing}: the folder refuses writes (${code})`)
  }
  if (code === 'ABORT_ERR') return new StorageFailure('transient', 'unavailable', `${doing}: stopped`)
  return new StorageFailure('transient', 'unavailable', `${doing}: ${code ?? 'failed'}`, { cause: error })
}

/** @param {string} token */
const tokenHash = (token) => createHash('sha256').update(token).digest()

/**
 * @param {{ config: FolderSettings, credentials: { access_token: string } }} settings
 * @returns {import('@docsvc/core/sdk').StorageProvider}
 */
export function createFolderStorage({ config, credentials }) {
  const limits = { maxObjectBytes: config.max_object_bytes, maxPathBytes: 1024, segmentPattern: SEGMENT }
  const root = path.resolve(config.root)

  /** the mount is up and its access file names our token; the folder's real path */
  async function openRoot() {
    const rootStat = await stat(root).catch((error) => {
      if (error.code === 'ENOENT') {
        throw new StorageFailure('transient', 'unavailable', 'the folder is not there; is the share mounted?')
      }
      throw error
    })
    if (!rootStat.isDirectory())
      throw new StorageFailure('permanent', 'not_found', 'the root is not a folder')
    const expected = Buffer.from(
      (await readFile(path.join(root, ACCESS_FILE), 'utf8').catch(() => '')).trim(),
      'hex',
    )
    const given = tokenHash(credentials.access_token)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new StorageFailure(
        'permanent',
        'access_denied',
        `the folder's ${ACCESS_FILE} does not grant this token`,
      )
    }
    return realpath(root)
  }

  /**
   * Writes next to the target, then renames, so that a reader never sees half a file.
   * @param {import('@docsvc/core/sdk').ByteSource} file
   * @param {string} relative
   * @param {AbortSignal} signal
   */
  async function write(file, relative, signal) {
    const realRoot = await openRoot()
    const segments = relative.split('/')
    const name = /** @type {string} */ (segments.pop())
    // one folder at a time, each checked before anything is made in it: a symlinked folder
    // inside the share must not lead out of it
    let realDir = realRoot
    for (const segment of segments) {
      const next = path.join(realDir, segment)
      await mkdir(next).catch((/** @type {NodeJS.ErrnoException} */ error) => {
        if (error.code !== 'EEXIST') throw error
      })
      realDir = await realpath(next)
      if (!realDir.startsWith(realRoot + path.sep)) {
        throw new StorageFailure('permanent', 'invalid_path', 'the path leads out of the folder')
      }
    }
    const target = path.join(realDir, name)
    const temp = path.join(realDir, `.${name}.${randomBytes(6).toString('hex')}.part`)
    try {
      if ('bytes' in file) await writeFile(temp, file.bytes, { signal, flag: 'wx' })
      else await pipeline(createReadStream(file.path), createWriteStream(temp, { flags: 'wx' }), { signal })
      await rename(temp, target)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
    return target
  }

  return {
    limits,
    async put(file, relative, _contentType, { signal }) {
      const size = 'bytes' in file ? file.bytes.length : file.size
      checkStoragePut(limits, relative, size)
      signal.throwIfAborted()
      try {
        const target = await write(file, relative, signal)
        return { location: target, url: pathToFileURL(target).href, size }
      } catch (error) {
        throw classify(error, 'storing the file')
      }
    },
    async probe({ signal }) {
      const probePath = `.docsvc-probe-${randomBytes(8).toString('hex')}`
      const payload = randomBytes(32)
      const [writeStep, readStep, deleteStep] = STORAGE_PROBE_STEPS
      const report = await runProbeSteps([
        [
          writeStep,
          async () => {
            await write({ bytes: payload }, probePath, signal).catch((error) => {
              throw classify(error, 'writing a test file')
            })
            return undefined
          },
        ],
        [
          readStep,
          async () => {
            const back = await readFile(path.join(root, probePath)).catch((error) => {
              throw classify(error, 'reading the test file back')
            })
            if (!back.equals(payload))
              throw new Error('the test file read back differs from what was written')
            return undefined
          },
        ],
        [
          deleteStep,
          async () => {
            await rm(path.join(root, probePath)).catch((error) => {
              throw classify(error, 'deleting the test file')
            })
            return undefined
          },
        ],
      ])
      // a failed read leaves the test file; it must not stay in the customer's folder
      if (!report.ok) await rm(path.join(root, probePath), { force: true }).catch(() => {})
      return report
    },
  }
}

/** @type {import('@docsvc/core/sdk').StorageProviderFactory<typeof FolderConfig, typeof FolderCredentials>} */
export const folderStorage = {
  id: 'drop_folder',
  configSchema: FolderConfig,
  credentialsSchema: FolderCredentials,
  create: (settings) => createFolderStorage(settings),
}

/**
 * The line to put in a folder's `.docsvc-access` for a token (the share's owner runs it).
 * @param {string} token
 */
export const accessFileFor = (token) => `${tokenHash(token).toString('hex')}\n`
