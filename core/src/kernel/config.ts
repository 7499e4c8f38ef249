import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'
import { type Static, Type } from 'typebox'
import { parseCidr } from '../net/cidr.ts'
import { ConfigError, loadConfigSection, maskSecrets, readConfigFile, settingLabel } from './config-loader.ts'
import { parseDuration } from './durations.ts'

export const ENV_PREFIX = 'DOCSVC'
/** The admin API answers whoever holds this token: too short a token can be guessed. */
export const MIN_OPERATOR_TOKEN_LENGTH = 32

/** SPEC 8's canvas output of 16,384 px per side, squared: no budget above it means anything. */
const MAX_CANVAS_PIXELS = 16_384 * 16_384
/**
 * 16,384 x 4,096: a 256 MiB RGBA pixmap, about a second of drawing. A full 16,384 px square is
 * 1 GiB before the encoder's own copies (docs/decisions/0031-canvas-pixel-budget.md).
 */
const DEFAULT_CANVAS_MAX_PIXELS = 16_384 * 4_096

/** SPEC 6.4: 8 attempts over about 27 h 35 min. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = ['5s', '5m', '30m', '2h', '5h', '10h', '10h']
const MAX_WEBHOOK_RETRIES = 20
/**
 * A delivery's whole schedule (jitter of 10 % included) ends well inside the 30 days its record
 * is kept: a longer one would be deleted mid-schedule without a word.
 */
const MAX_WEBHOOK_RETRY_TOTAL_MS = 7 * 86_400_000

/** `auto`, or the key a plugin registered its provider under (kebab-case, like plugin ids). */
const ProviderChoice = (description: string) =>
  Type.String({ default: 'auto', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description })

const Cidrs = Type.Array(Type.String(), { default: [] })

export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  host: Type.String({ default: '0.0.0.0' }),
  dataDir: Type.String({ default: './data' }),
  databaseUrl: Type.String({ default: '', description: 'postgres://... selects cluster mode' }),
  publicUrl: Type.String({
    default: '',
    description: 'base of signed file URLs; default http://localhost:PORT',
  }),
  docsUrl: Type.String({ default: '', description: 'base of problem type URIs; default PUBLIC_URL/docs' }),
  networkAllow: Cidrs,
  trustedProxies: Type.Array(Type.String(), {
    default: [],
    description: 'CIDRs of reverse proxies whose X-Forwarded-For is believed',
  }),
  chromiumPath: Type.String({ default: '/usr/bin/chromium' }),
  operatorToken: Type.String({
    default: '',
    secret: true,
    description: `guards /admin/v1 (at least ${MIN_OPERATOR_TOKEN_LENGTH} characters); empty disables it`,
  }),
  secretKey: Type.String({ default: '', secret: true, description: 'encrypts credentials at rest' }),
  smtpUrl: Type.String({
    default: '',
    description:
      'smtp://user:password@host:587 or smtps://...: the installation mails members their verification links; empty: the operator passes them on',
  }),
  smtpFrom: Type.String({
    default: '',
    description: "sender of the service's own mails; required with SMTP_URL",
  }),
  region: Type.String({ default: 'eu' }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  plugins: Type.Array(Type.String(), { default: [], description: 'third-party plugin package names' }),
  pluginPaths: Type.Array(Type.String(), {
    default: [],
    description: 'directories whose node_modules hold third-party plugins (besides the working directory)',
  }),
  autoMigrate: Type.Boolean({
    default: true,
    description: 'migrate at start; cluster deployments may run docsvc migrate instead',
  }),
  bodyLimitBytes: Type.Integer({
    minimum: 1024,
    default: 60 * 1024 * 1024,
    description: 'hard cap above plans',
  }),
  mergeMaxSourceBytes: Type.Integer({
    minimum: 1024,
    default: 100 * 1000 * 1000,
    description: 'total bytes of the sources of one PDF tool render (a merge names up to 200)',
  }),
  canvasMaxPixels: Type.Integer({
    minimum: 1,
    maximum: MAX_CANVAS_PIXELS,
    default: DEFAULT_CANVAS_MAX_PIXELS,
    description:
      'pixels of one canvas raster (width x height x scale^2, PDF scale included); more is 422 scene_invalid',
  }),
  anonymousRequestsPerSecond: Type.Integer({ minimum: 1, default: 20 }),
  keyUsageFlushMs: Type.Integer({ minimum: 10, default: 2000 }),
  workerConcurrency: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'renders one worker runs at once',
  }),
  renderTimeoutSeconds: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 120,
    description: 'hard limit of one render',
  }),
  conformanceTimeoutSeconds: Type.Integer({
    minimum: 1,
    maximum: 600,
    default: 10,
    description:
      'how long one conformance validator may take on a render before it goes on with a *_validation_unavailable warning',
  }),
  verapdfPath: Type.String({
    default: '',
    description:
      'an installed veraPDF command line (its verapdf script); set, its verdict on PDF/A and PDF/UA comes first',
  }),
  renderRecordRetentionDays: Type.Integer({
    minimum: 2,
    default: 30,
    description: 'days a finished render record is kept after its last change (its files are gone by then)',
  }),
  firstRun: Type.Boolean({
    default: true,
    description: 'create a default workspace and keys on an empty DB',
  }),
  queueBackend: ProviderChoice(
    'auto (sqlite in embedded mode, pgboss in cluster mode) or the queue backend a plugin provides',
  ),
  fileStore: ProviderChoice(
    'auto (the one configured provider, else local), local, or the file store a plugin provides (s3)',
  ),
  einvoiceArtifacts: Type.String({
    default: '',
    description:
      'a folder of newer e-invoice XML schemas with the layout of plugins/einvoice/schemas; empty: the shipped ones',
  }),
  einvoiceValidatorUrl: Type.String({
    default: '',
    description:
      "the operator's KoSIT validator in daemon mode (http or https), asked about every e-invoice beside the XSD; empty: none",
  }),
  einvoiceValidationTimeoutSeconds: Type.Integer({
    minimum: 1,
    maximum: 600,
    default: 30,
    description:
      'seconds the XML validators of one e-invoice get; one that gives no answer by then is reported as unavailable',
  }),
  webhookRetrySchedule: Type.Array(Type.String(), {
    default: [...DEFAULT_WEBHOOK_RETRY_SCHEDULE],
    description: 'waits before webhook attempts 2, 3, ...: durations such as 5s, 5m, 2h, 1d',
  }),
})

export type Config = Static<typeof ConfigSchema> & {
  mode: 'embedded' | 'cluster'
  sqlitePath: string
}

/** Effective config: defaults, then DOCSVC_CONFIG_FILE (JSON), then DOCSVC_* env vars. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const configFile = env[`${ENV_PREFIX}_CONFIG_FILE`]
  const file = configFile ? readConfigFile(configFile) : {}
  const sources = { env, prefix: ENV_PREFIX, file, ...(configFile ? { fileName: configFile } : {}) }
  const { value, problems } = loadConfigSection(ConfigSchema, sources)
  const label = (name: string) => settingLabel(sources, [name])
  const base = { ...(value as Static<typeof ConfigSchema>), ...overrides }
  if (base.databaseUrl && !/^postgres(ql)?:\/\//.test(base.databaseUrl)) {
    problems.push(`${label('databaseUrl')}: must start with postgres:// (empty selects embedded SQLite)`)
  }
  if (base.operatorToken && base.operatorToken.length < MIN_OPERATOR_TOKEN_LENGTH) {
    problems.push(
      `${label('operatorToken')}: must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters (e.g. the output of \`openssl rand -base64 32\`); empty switches the admin API off`,
    )
  }
  for (const [name, list] of [
    ['networkAllow', base.networkAllow],
    ['trustedProxies', base.trustedProxies],
  ] as const) {
    for (const cidr of list) if (!isCidrText(cidr)) problems.push(`${label(name)}: ${cidr} is not a CIDR`)
  }
  problems.push(...retryScheduleProblems(base.webhookRetrySchedule, label('webhookRetrySchedule')))
  problems.push(...smtpProblems(base))
  if (base.verapdfPath && !isExecutable(base.verapdfPath))
    problems.push(
      `${label('verapdfPath')}: ${base.verapdfPath} is not an executable file (the verapdf script of a veraPDF install)`,
    )
  if (problems.length > 0) throw new ConfigError(problems)
  const dataDir = path.resolve(base.dataDir)
  const publicUrl = (base.publicUrl || `http://localhost:${base.port}`).replace(/\/+$/, '')
  return {
    ...base,
    dataDir,
    publicUrl,
    docsUrl: (base.docsUrl || `${publicUrl}/docs`).replace(/\/+$/, ''),
    mode: base.databaseUrl ? 'cluster' : 'embedded',
    sqlitePath: path.join(dataDir, 'docsvc.sqlite'),
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    return false
  }
}

function retryScheduleProblems(schedule: string[], name: string): string[] {
  const problems: string[] = []
  let totalMs = 0
  for (const text of schedule) {
    const ms = parseDuration(text)
    if (ms === undefined || ms < 1000)
      problems.push(`${name}: ${JSON.stringify(text)} is not a duration of at least 1s (e.g. 5s, 5m, 2h, 1d)`)
    else totalMs += ms
  }
  if (schedule.length === 0 || schedule.length > MAX_WEBHOOK_RETRIES)
    problems.push(`${name}: must list 1 to ${MAX_WEBHOOK_RETRIES} delays (got ${schedule.length})`)
  if (totalMs > MAX_WEBHOOK_RETRY_TOTAL_MS)
    problems.push(`${name}: the delays add up to more than 7d (deliveries are kept 30 days)`)
  return problems
}

function smtpProblems(base: Pick<Config, 'smtpUrl' | 'smtpFrom'>): string[] {
  if (!base.smtpUrl) return []
  const problems: string[] = []
  if (!/^smtps?:\/\/[^/?#]+/.test(base.smtpUrl)) {
    problems.push(`${ENV_PREFIX}_SMTP_URL: must look like smtp://user:password@host:587 or smtps://host:465`)
  }
  if (!base.smtpFrom)
    problems.push(
      `${ENV_PREFIX}_SMTP_FROM: required with ${ENV_PREFIX}_SMTP_URL (e.g. docsvc <no-reply@example.com>)`,
    )
  return problems
}

function isCidrText(text: string): boolean {
  try {
    parseCidr(text)
    return true
  } catch {
    return false
  }
}

/** The config with secrets masked, and the password of the database URL hidden. */
export function printableConfig(config: Config): Record<string, unknown> {
  const masked = maskSecrets(config, ConfigSchema as never) as Record<string, unknown>
  masked.databaseUrl = maskDatabaseUrl(config.databaseUrl)
  masked.smtpUrl = maskDatabaseUrl(config.smtpUrl)
  return masked
}

/**
 * Hides the password in the user part and in a `password=` query parameter (libpq accepts both);
 * the SMTP URL is masked the same way.
 */
export function maskDatabaseUrl(url: string): string {
  // the last @ before the host ends the user part: a password may itself contain @
  const masked = url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^/?#]*@/i, '$1:***@')
  return masked.replace(/([?&]password=)[^&#]*/gi, '$1***')
}

/** What plugins get as `host.einvoice`: the e-invoice validation settings (kernel and config print alike). */
export function einvoiceHostSettings(config: Config): { artifactsDir: string; validatorUrl: string } {
  return { artifactsDir: config.einvoiceArtifacts, validatorUrl: config.einvoiceValidatorUrl }
}
