import { execFile } from 'node:child_process'
import { constants } from 'node:fs'
import { access, chmod, chown, mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ChromiumConfig } from './chromium-config.ts'
import { type ChromiumFolders, chromiumEnv } from './chromium-env.ts'

/** How every browser of one pool is started: as whom, from where, with which environment. */
export interface ChromiumLaunch {
  executablePath: string
  env: Record<string, string>
  uid: number
  gid: number
  sandbox: boolean
  /** the private folder holding Chromium's home (and, when root, the launcher) */
  root: string
  dispose(): Promise<void>
}

export interface ChromiumLaunchOptions {
  chromiumPath: string
  config: Pick<ChromiumConfig, 'sandbox' | 'runAsUid' | 'runAsGid'>
  /** DOCSVC_DATA_DIR: Chromium's folders must not be inside it */
  dataDir?: string | undefined
  /** process.getuid() by default (tests pretend otherwise) */
  serviceUid?: number
  env?: NodeJS.ProcessEnv
  /** why the browser's user cannot build the sandbox's namespaces (tests stand in a refusal) */
  probeNamespaces?: typeof userNamespaceRefusal
}

export const SANDBOX_SETTING = 'DOCSVC_PLUGIN_CHROMIUM_SANDBOX'
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv']
const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare']

/**
 * Chromium executes tenants' JavaScript, so it runs with as little as possible: its own sandbox
 * on, no secrets in its environment, and never as root. A service running as root (a fresh
 * machine, CI) starts it as an unprivileged uid (65534, `nobody`, unless configured) through a
 * launcher script: Playwright spawns the browser itself and has no uid option, so the script
 * hands Playwright's profile folder to that uid and execs Chromium under `setpriv`.
 */
export async function prepareChromiumLaunch(options: ChromiumLaunchOptions): Promise<ChromiumLaunch> {
  const serviceUid = options.serviceUid ?? process.getuid?.() ?? -1
  const asRoot = serviceUid === 0
  const uid = asRoot ? options.config.runAsUid : serviceUid
  const gid = asRoot ? options.config.runAsGid : (process.getgid?.() ?? -1)
  const setpriv = asRoot ? await firstExecutable(SETPRIV_PATHS) : undefined
  if (asRoot && !setpriv) {
    throw new Error(
      'docsvc runs as root, so Chromium is started as an unprivileged user through setpriv (util-linux), which is missing: install util-linux or run docsvc as a non-root user',
    )
  }

  // tmpdir is the service's, where Playwright also puts the profile folder; root keeps this
  // folder (0711: the browser's user can reach its home but not list or change the launcher)
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'docsvc-chromium-')))
  try {
    await refuseInsideDataDir(root, options.dataDir)
    await chmod(root, 0o711)
    const folders: ChromiumFolders = { home: path.join(root, 'home'), tmp: path.join(root, 'home', 'tmp') }
    for (const dir of [folders.home, folders.tmp]) {
      await mkdir(dir, { mode: 0o700 })
      if (asRoot) await chown(dir, uid, gid)
    }
    const env = chromiumEnv(folders, options.env)
    let executablePath = options.chromiumPath
    if (setpriv) {
      executablePath = path.join(root, 'launch-chromium')
      await writeFile(executablePath, launcherScript(setpriv, options.chromiumPath, uid, gid), {
        mode: 0o700,
      })
    }
    if (options.config.sandbox) {
      const probe = options.probeNamespaces ?? userNamespaceRefusal
      const refusal = await probe(setpriv ? [setpriv, ...dropArgs(uid, gid)] : [], env)
      if (refusal) throw new Error(sandboxUnavailable(uid, refusal))
    }
    return {
      executablePath,
      env,
      uid,
      gid,
      sandbox: options.config.sandbox,
      root,
      dispose: () => rm(root, { recursive: true, force: true }),
    }
  } catch (err) {
    await rm(root, { recursive: true, force: true })
    throw err
  }
}

/**
 * A warning when Chromium's uid, another than the service's, could enter the data dir (the
 * database, every tenant's files): a page that escaped the renderer could read them. The service
 * makes a new data dir 0700; one made by hand may be open to everyone.
 */
export async function dataDirExposure(launch: ChromiumLaunch, dataDir: string | undefined) {
  if (!dataDir || launch.uid === process.getuid?.()) return undefined
  const info = await stat(dataDir).catch(() => undefined)
  if (!info || info.uid === launch.uid) return undefined
  const enterable = (info.mode & 0o001) !== 0 || ((info.mode & 0o010) !== 0 && info.gid === launch.gid)
  if (!enterable) return undefined
  return `DOCSVC_DATA_DIR (${dataDir}) can be entered by Chromium's uid ${launch.uid}: chmod o-rwx ${dataDir} so a page that escapes the browser cannot read it`
}

/** What start() tells an operator who switched the sandbox off. */
export function sandboxOffWarning(uid: number): string {
  return `Chromium's sandbox is off (${SANDBOX_SETTING}=false): a page that exploits a renderer bug runs with all the rights of uid ${uid}. Switch it back on once the machine allows user namespaces.`
}

/** The failure of a launch whose browser could not build its sandbox, with what to do. */
export function sandboxUnavailable(uid: number, cause: string): string {
  return [
    `Chromium's sandbox cannot work here for uid ${uid}: ${cause}.`,
    'It needs unprivileged user namespaces: sysctl user.max_user_namespaces > 0 (and kernel.unprivileged_userns_clone=1 where it exists);',
    'in a container, a seccomp profile that allows unshare and clone of namespaces (docs/operator.md, "Chromium sandbox").',
    `Or set ${SANDBOX_SETTING}=false to run it without (not recommended: tenants' JavaScript is then only as contained as that uid).`,
  ].join(' ')
}

export function isSandboxFailure(message: string): boolean {
  return /No usable sandbox|sandboxing failed|crbug\.com\/638180|crbug\.com\/357670/i.test(message)
}

function dropArgs(uid: number, gid: number): string[] {
  return [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--']
}

function launcherScript(setpriv: string, chromium: string, uid: number, gid: number): string {
  return [
    '#!/bin/sh',
    '# Made by docsvc for one worker process: Chromium runs as an unprivileged uid.',
    '# Playwright made the profile folder (as root, 0700); the browser must own it.',
    'for arg do',
    '  case "$arg" in',
    `    --user-data-dir=*) chown ${uid}:${gid} -- "\${arg#--user-data-dir=}" || exit 1 ;;`,
    '  esac',
    'done',
    `exec ${[setpriv, ...dropArgs(uid, gid), chromium].map(shellQuote).join(' ')} "$@"`,
    '',
  ].join('\n')
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

async function firstExecutable(candidates: string[]): Promise<string | undefined> {
  for (const file of candidates) {
    if (
      await access(file, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return file
  }
  return undefined
}

async function refuseInsideDataDir(root: string, dataDir: string | undefined): Promise<void> {
  if (!dataDir) return
  const data = await realpath(dataDir).catch(() => path.resolve(dataDir))
  const relative = path.relative(data, root)
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new Error(
      `Chromium's folders would be inside the data dir (${root}): point TMPDIR somewhere outside DOCSVC_DATA_DIR`,
    )
  }
}

/**
 * Why the browser's user cannot make the namespaces Chromium's sandbox builds (user, pid and
 * network), or undefined when it can; checked with unshare, in milliseconds, at start, so the
 * process fails there rather than at the first render. Without unshare nothing is known: the
 * launch itself then reports it.
 */
export async function userNamespaceRefusal(
  prefix: string[],
  env: Record<string, string>,
): Promise<string | undefined> {
  const unshare = await firstExecutable(UNSHARE_PATHS)
  if (!unshare) return undefined
  const [command, ...args] = [
    ...prefix,
    unshare,
    '--user',
    '--map-root-user',
    '--pid',
    '--net',
    '--fork',
    'true',
  ]
  return new Promise<string | undefined>((resolve) => {
    execFile(command as string, args, { env, timeout: 10_000 }, (err, _stdout, stderr) => {
      if (!err) resolve(undefined)
      else resolve(stderr.trim().split('\n').at(-1) || err.message)
    })
  })
}
