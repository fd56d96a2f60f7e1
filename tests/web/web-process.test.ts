import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

/**
 * The web process and the Remix build are two bundles (build/server.js, build/server/index.js). A
 * module imported by both existed twice at run time, and per-request state bridged the copies on
 * globalThis (decision 013). Now: server/ and app/ share no module, per-request state travels in
 * the load context, and node_modules is the packages as published.
 */
const root = path.resolve(__dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
/** Code that keeps something on globalThis (a comment that names it is not). */
const GLOBAL_STATE = /\bglobalThis\s*(as\b|\.|\[|\))|Symbol\.for\(/

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(path.join(root, file)).isDirectory()) return sources(file)
    return /\.(ts|tsx)$/.test(name) ? [file] : []
  })
}

describe('one copy of every module', () => {
  it('the bundle of server.ts holds no file of app/ (nothing of the Remix build exists twice)', async () => {
    const result = await build({
      entryPoints: [path.join(root, 'server.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      tsconfig: path.join(root, 'tsconfig.json'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.some((file) => file.startsWith('server/'))).toBe(true)
    expect(inputs.filter((file) => !file.startsWith('server/') && file !== 'server.ts')).toEqual([])
  })

  it('app/ imports nothing from server/, and neither keeps state on globalThis', () => {
    for (const file of sources('app')) {
      const text = read(file)
      expect(text, file).not.toMatch(/from ['"](\.\.\/)+server(\/|['"])/)
      expect(text, file).not.toMatch(GLOBAL_STATE)
    }
    for (const file of [...sources('server'), 'server.ts']) expect(read(file), file).not.toMatch(GLOBAL_STATE)
  })

  it('app/utils imports nothing from the api client (app/upstream builds on utils, not the reverse)', () => {
    for (const file of sources('app/utils')) expect(read(file), file).not.toMatch(/from ['"](~\/upstream|(\.\.\/)+upstream)\//)
  })

  it('the per-request state reaches loaders through the load context, never a request header', () => {
    const loadContextType = read('app/load-context.ts')
    for (const field of ['cspNonce', 'clientAddress', 'requestId', 'memo']) expect(loadContextType).toContain(`readonly ${field}:`)
    for (const file of [...sources('app'), ...sources('server')]) expect(read(file), file).not.toMatch(/x-cardlane-(request-id|client-ip)/i)
  })
})

describe('the framework as published', () => {
  it('no patches, no patch-package, no install script that could change node_modules', () => {
    expect(existsSync(path.join(root, 'patches'))).toBe(false)
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; dependencies: object; devDependencies: object }
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined()
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('patch-package')
    expect(read('Dockerfile')).not.toMatch(/patches/)
  })

  it('npm ci left the files the patches used to change as their packages ship them', () => {
    const shipped = (pkg: string, file: string) => read(path.join('node_modules', pkg, file))
    // The lines each patch added (decision 010); none may be there.
    expect(shipped('@remix-run/router', 'dist/router.cjs.js')).not.toMatch(/rankedBranches/)
    expect(shipped('@remix-run/react', 'dist/server.js')).not.toMatch(/serverRoutesCache/)
    expect(shipped('react-router-dom', 'server.js')).not.toMatch(/dataRoutesCache/)
    expect(shipped('@remix-run/server-runtime', 'dist/data.js')).not.toMatch(/Nothing to strip/)
  })
})
