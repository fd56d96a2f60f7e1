// s3rver (dev only, for the s3 storage driver's tests) ships without types.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'
  export default class S3rver {
    constructor(options: {
      address?: string
      port?: number
      silent?: boolean
      directory: string
      resetOnClose?: boolean
      configureBuckets?: { name: string; configs?: (string | Buffer)[] }[]
    })
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
