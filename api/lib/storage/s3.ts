import type { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import type { StorageConfig } from '../../config'
import { assertKey, type Storage } from './index'

/**
 * Any S3-compatible service. Objects are private (no ACL is ever set) and read back only through
 * the api. Timeouts are bounded so a slow bucket fails a request instead of holding it.
 */
export function createS3Storage(config: Extract<StorageConfig, { driver: 's3' }>): Storage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  })
  const keyOf = (key: string) => {
    assertKey(key)
    return config.prefix + key
  }
  return {
    driver: 's3',
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: config.bucket, Key: keyOf(key), Body: data, ContentType: contentType, ContentLength: data.length }),
      )
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: keyOf(key) }))
        if (!out.Body) return undefined
        return { body: out.Body as Readable, bytes: out.ContentLength }
      } catch (err) {
        if (err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) return undefined
        throw err
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: keyOf(key) }))
    },
  }
}
