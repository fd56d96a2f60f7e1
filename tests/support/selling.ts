import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll } from 'vitest'
import type { Rate } from '#contract/catalogue'
import type { DeskOrder, RateChangeRequest } from '#contract/ops/review'
import type { Order } from '#contract/orders'
import type { UploadData } from '#contract/uploads'
import type { ApiConfig } from '../../api/config'
import type { ApiAnswer, StartTestApiOptions, TestApi } from './api'
import { useTestApi } from './kit'
import { bearer, seedStaff } from './staff'
import { admin, requestId } from './wallet'

/**
 * Selling in tests: the real api with its photos in a temporary folder (never data/uploads), and
 * helpers that sell, upload and review the way the web and the operators do, over HTTP.
 */
/** A folder for one test file's photos, removed after the file. */
export function useUploadDir(tag = 'uploads'): string {
  const uploadDir = mkdtempSync(join(tmpdir(), `cardlane-${tag}-`))
  afterAll(() => rmSync(uploadDir, { recursive: true, force: true }))
  return uploadDir
}

/** Selling's settings in tests: the test key for e-codes, photos on disk in `uploadDir`. */
export const sellingConfig = (uploadDir: string, selling: Partial<ApiConfig['selling']> = {}): ApiConfig['selling'] => ({
  codesKey: 'test-codes-key-0123456789abcdef-0123456789',
  storage: { driver: 'disk', dir: uploadDir },
  uploadsPerDay: 500,
  offerAnswerMs: 48 * 3_600_000,
  ...selling,
})

export function useSellingApi(
  options: StartTestApiOptions & { web?: boolean; selling?: Partial<ApiConfig['selling']> } = {},
): TestApi & { uploadDir: string } {
  const uploadDir = useUploadDir()
  const api = useTestApi({
    web: false,
    ...options,
    config: { ...options.config, selling: sellingConfig(uploadDir, options.selling) },
  })
  return new Proxy(api, { get: (target, key) => (key === 'uploadDir' ? uploadDir : Reflect.get(target, key)) }) as TestApi & {
    uploadDir: string
  }
}

/** A fresh e-code nobody has submitted: 16 letters and digits. */
export const newCode = () =>
  randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .padEnd(16, '7')
    .slice(0, 16)

export async function rateOf(api: TestApi, brandId: string, country: string, cardType: string): Promise<Rate> {
  const res = await api.get<Rate[]>(`/v1/giftcard/rates?brandId=${brandId}&country=${country}&cardType=${cardType}`)
  const rate = res.body.data?.[0]
  if (!rate) throw new Error(`no rate for ${brandId} ${country} ${cardType}: ${res.text}`)
  return rate
}

export type SellInput = {
  brandId?: string
  country?: string
  cardType?: 'physical' | 'ecode'
  cards?: { faceValue: number; cardCodes?: string[]; imageIds?: string[] }[]
  quotedRate?: string
  requestId?: string
}

/** POST /v1/order/sell: an Apple US e-code of US$100 with a fresh code unless told otherwise, at the current rate. */
export async function sell(api: TestApi, token: string, input: SellInput = {}): Promise<ApiAnswer<Order>> {
  const brandId = input.brandId ?? 'apple'
  const country = input.country ?? 'US'
  const cardType = input.cardType ?? 'ecode'
  const quotedRate = input.quotedRate ?? (await rateOf(api, brandId, country, cardType)).rate
  const cards = input.cards ?? [{ faceValue: 10_000, cardCodes: [newCode()] }]
  return api.post<Order>(
    '/v1/order/sell',
    { brandId, country, cardType, cards, quotedRate, requestId: input.requestId ?? requestId() },
    { token },
  )
}

/** Sells and insists on success. */
export async function sold(api: TestApi, token: string, input: SellInput = {}): Promise<Order> {
  const res = await sell(api, token, input)
  if (res.body.code !== 200) throw new Error(`sell: ${res.text}`)
  return res.body.data
}

/** A JPEG of this size (optionally carrying EXIF with GPS, as phones write it). */
export function jpeg(width = 640, height = 400, options: { gps?: boolean; format?: 'jpeg' | 'png' | 'webp' } = {}): Promise<Buffer> {
  let img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
  if (options.gps) {
    img = img.withExif({
      IFD0: { Make: 'TestPhone', Model: 'Cardlane 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '6/1 27/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '3/1 23/1 0/1' },
    })
  }
  const format = options.format ?? 'jpeg'
  return (format === 'png' ? img.png() : format === 'webp' ? img.webp() : img.jpeg()).toBuffer()
}

/** POST a multipart body with one file part (name `file` unless told). */
export async function upload(
  api: TestApi,
  auth: { token?: string; admin?: string },
  bytes: Buffer | Uint8Array,
  options: { filename?: string; contentType?: string; field?: string; extraFiles?: number } = {},
): Promise<ApiAnswer<UploadData>> {
  const form = new FormData()
  const part = () => new Blob([bytes], { type: options.contentType ?? 'image/jpeg' })
  form.append(options.field ?? 'file', part(), options.filename ?? 'card.jpg')
  for (let i = 0; i < (options.extraFiles ?? 0); i++) form.append('file', part(), `more-${i}.jpg`)
  const headers: Record<string, string> = { clientType: 'h5' }
  if (auth.token) headers.token = auth.token
  if (auth.admin) headers.authorization = `Bearer ${auth.admin}`
  const path = auth.admin ? '/admin/file/upload' : '/v1/file/upload'
  const res = await fetch(api.url + path, { method: 'POST', headers, body: form })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text), headers: res.headers, text }
}

/** Uploads a fresh photo and answers its id. */
export async function photo(api: TestApi, token: string): Promise<string> {
  const res = await upload(api, { token }, await jpeg())
  if (res.body.code !== 200) throw new Error(`upload: ${res.text}`)
  return res.body.data.fileId
}

/** GET a photo's bytes (or the envelope that refuses them). */
export async function download(api: TestApi, id: string, auth: { token?: string; admin?: string }) {
  const headers: Record<string, string> = { clientType: 'h5' }
  if (auth.token) headers.token = auth.token
  if (auth.admin) headers.authorization = `Bearer ${auth.admin}`
  const res = await fetch(`${api.url}${auth.admin ? '/admin/file/get' : '/v1/file/get'}?id=${encodeURIComponent(id)}&_t=1`, { headers })
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
    headers: res.headers,
  }
}

/** The operators' calls for orders. */
export const ops = (api: TestApi) => {
  const a = admin(api)
  return {
    claim: (id: string) => a.post<DeskOrder>('/admin/order/claim', { id }),
    complete: (id: string, note?: string) => a.post<DeskOrder>('/admin/order/complete', { id, ...(note && { note }) }),
    propose: (id: string, reason: string, cards: { cardId: string; payout: number; reasonCode: string }[]) =>
      a.post<DeskOrder>('/admin/order/propose', { id, reason, cards }),
    reject: (id: string, reasonCode: string, extra: { note?: string; proofImageId?: string } = {}) =>
      a.post<DeskOrder>('/admin/order/reject', { id, reasonCode, ...extra }),
    detail: (id: string) => a.get<DeskOrder>(`/admin/order/detail?id=${id}`),
    /** Through the confirmation step, and a second admin's approval when the change asks for one (decision 041). */
    setRate: async (brandId: string, country: string, cardType: string, rate: string): Promise<ApiAnswer<Rate>> => {
      const set = await a.post<Rate | RateChangeRequest>('/admin/giftcard/rate', { brandId, country, cardType, rate, confirmed: true })
      const asked = set.body.data
      if (!asked || !('type' in asked)) return set as ApiAnswer<Rate>
      const checker = await seedStaff(api, { role: 'admin' })
      return api.post<Rate>('/admin/giftcard/rate/approve', { id: asked.id }, { headers: bearer(checker.token) })
    },
  }
}
