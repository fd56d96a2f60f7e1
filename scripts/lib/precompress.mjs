// Brotli and gzip copies of every fingerprinted asset, written once at build time, so the web serves
// the smallest copy a browser accepts without compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const compressed = /\.(br|gz)$/

/** Writes `<file>.br` and `<file>.gz` beside each file under `dir` (recursively); returns how many files. */
export function precompress(dir) {
  let count = 0
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(entry))
    if (compressed.test(file) || !statSync(file).isFile()) continue
    const bytes = readFileSync(file)
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
    )
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }))
    count += 1
  }
  return count
}
