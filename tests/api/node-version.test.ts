import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { esbuildTarget } from '../../scripts/lib/node-version.mjs'

/** The Node line is stated once, in .nvmrc; whatever names a line takes it from there (decision 043). */
const repo = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8')
const line = read('.nvmrc').trim()

describe('the Node line', () => {
  it('is what the suites run on (CI takes it through scripts/use-node.sh)', () => {
    expect(process.versions.node.split('.')[0]).toBe(line)
  })

  it('is the one engines names, and the bundles target', () => {
    expect(JSON.parse(read('package.json')).engines.node).toMatch(new RegExp(`^\\^${line}\\.`))
    expect(esbuildTarget).toBe(`node${line}`)
  })

  it('is handed to the Dockerfile, which names no line of its own', () => {
    const froms = read('Dockerfile')
      .split('\n')
      .filter((l) => l.startsWith('FROM '))
    expect(froms.length).toBeGreaterThan(0)
    for (const from of froms) expect(from).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim/)
  })
})
