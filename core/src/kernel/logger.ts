import pino, { type Logger } from 'pino'
import type { PluginLogger } from '../sdk/define-plugin.ts'

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'docsvc' }, timestamp: pino.stdTimeFunctions.isoTime })
}

export function pluginLogger(log: Logger): PluginLogger {
  const at = (level: 'info' | 'warn' | 'error' | 'debug') => (msg: string, data?: Record<string, unknown>) =>
    data ? log[level](data, msg) : log[level](msg)
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') }
}
