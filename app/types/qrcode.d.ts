// The part of `qrcode` (1.5, no bundled types) that app/utils/qr.server.ts uses.
declare module 'qrcode' {
  export type QRCodeToStringOptions = {
    type?: 'svg' | 'utf8' | 'terminal'
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'
    margin?: number
    width?: number
    color?: { dark?: string; light?: string }
  }
  export function toString(text: string, options?: QRCodeToStringOptions): Promise<string>
  const QRCode: { toString: typeof toString }
  export default QRCode
}
