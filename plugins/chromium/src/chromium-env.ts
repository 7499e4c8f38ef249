/**
 * The environment Chromium is started with: built from an allow-list, never from the service's
 * own environment, which holds the database URL, the secret key, the operator token and
 * whatever else the operator put there. Only settings that shape rendering pass through.
 */
const PASSED_THROUGH = ['TZ', 'LANG', 'LANGUAGE', 'FONTCONFIG_FILE', 'FONTCONFIG_PATH']
const LOCALE_VARIABLE = /^LC_[A-Z]+$/

/** Chromium's own folders: its home and temporary files, owned by the user it runs as. */
export interface ChromiumFolders {
  home: string
  tmp: string
}

export function chromiumEnv(folders: ChromiumFolders, source: NodeJS.ProcessEnv = process.env) {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: folders.home,
    TMPDIR: folders.tmp,
    XDG_CONFIG_HOME: `${folders.home}/.config`,
    XDG_CACHE_HOME: `${folders.home}/.cache`,
  }
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue
    if (PASSED_THROUGH.includes(name) || LOCALE_VARIABLE.test(name)) env[name] = value
  }
  return env
}
