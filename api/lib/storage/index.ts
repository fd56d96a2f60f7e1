import type { Readable } from 'node:stream'
import type { StorageConfig } from '../../config'
import { createDiskStorage } from './disk'
import { createS3Storage } from './s3'

/**
 * Where card photos live: one interface, two drivers. `disk` (the default: files under
 * UPLOAD_DIR, owner-only) for one machine; `s3` for deployments with several api instances (any
 * S3-compatible service: AWS, R2, MinIO…). Keys are ours (`<yyyy>/<mm>/<uuid>.jpg`), never a
 * person's file name, and nothing is ever served from a public URL.
 */
export type Storage = {
  readonly driver: StorageConfig['driver']
  put(key: string, data: Buffer, contentType: string): Promise<void>
  /** The bytes as a stream, or undefined when there is no such object. */
  get(key: string): Promise<{ body: Readable; bytes: number | undefined } | undefined>
  delete(key: string): Promise<void>
}

/** Keys are made by the api; anything else is refused before it reaches a path or a bucket. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9/-]{0,200}\.jpg$/

export function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..') || key.includes('//')) throw new Error(`storage: bad key ${JSON.stringify(key)}`)
}

export function createStorage(config: StorageConfig): Storage {
  return config.driver === 's3' ? createS3Storage(config) : createDiskStorage(config.dir)
}
