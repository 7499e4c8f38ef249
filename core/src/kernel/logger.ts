import pino, { type Logger } from 'pino'
import type { PluginLogger } from '../sdk/define-plugin.ts'

/** JSON logs; admin commands log to stderr so their --json output on stdout stays clean. */
export function createLogger(level: string, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    { level, base: { service: 'docsvc' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination(to === 'stderr' ? 2 : 1),
  )
}

export function pluginLogger(log: Logger): PluginLogger {
  const at = (level: 'info' | 'warn' | 'error' | 'debug') => (msg: string, data?: Record<string, unknown>) =>
    data ? log[level](data, msg) : log[level](msg)
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') }
}
