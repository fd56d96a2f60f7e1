import { pino } from 'pino'

/** The web process's logger. Never given tokens, cookies, codes, PINs or passwords. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' || process.env.VITEST ? 'silent' : 'info'),
  base: { service: 'web' },
  redact: {
    paths: ['req.headers.cookie', 'req.headers.token', 'headers.cookie', 'headers.token', '*.password', '*.verifyCode', '*.pin', '*.token'],
    censor: '[redacted]',
  },
})
