import { pino, type DestinationStream, type Logger } from 'pino'

export type { Logger }

/**
 * Paths pino blanks out wherever they appear in a log object. This is the second line of defence:
 * the first is that request bodies, query strings and mail texts are never logged at all.
 * Secrets (tokens, codes, PINs, passwords) never reach the logs (DESIGN §4).
 */
export const REDACT_PATHS = [
  'token',
  'password',
  'oldPin',
  'pin',
  'verifyCode',
  'code_hash',
  'password_hash',
  'id_token',
  'idToken',
  'headers.token',
  'headers.authorization',
  'headers.cookie',
  'req.headers.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-cardlane-device"]',
  'req.headers["x-cardlane-device"]',
  '*.token',
  '*.password',
  '*.oldPin',
  '*.pin',
  '*.verifyCode',
  '*.id_token',
  '*.idToken',
  '*.code_hash',
  '*.password_hash',
  'body',
  '*.body',
  'otp',
  '*.otp',
]

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'api' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    stream,
  )
}
