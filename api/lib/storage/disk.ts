import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { newId } from '../tokens'
import { assertKey, type Storage } from './index'

/** Files under `dir` (default data/uploads), folders 0700 and files 0600: photos are secrets. */
export function createDiskStorage(dir: string): Storage {
  const root = resolve(dir)
  const pathOf = (key: string) => {
    assertKey(key)
    return join(root, key)
  }
  return {
    driver: 'disk',
    async put(key, data) {
      const path = pathOf(key)
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      // Written aside and renamed: a reader never sees half a file.
      const temp = `${path}.${newId()}.part`
      try {
        await writeFile(temp, data, { mode: 0o600, flag: 'wx' })
        await rename(temp, path)
      } catch (err) {
        await rm(temp, { force: true })
        throw err
      }
    },
    async get(key) {
      let handle
      try {
        handle = await open(pathOf(key), 'r')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw err
      }
      const { size } = await handle.stat()
      return { body: handle.createReadStream({ autoClose: true }), bytes: size }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}
