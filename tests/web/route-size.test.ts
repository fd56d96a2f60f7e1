import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The sell page is a folder route (route, form components, server module), each function the size
 * of one idea: none over 80 lines.
 */
const MAX_LINES = 80
const sellDir = path.resolve(__dirname, '../../app/routes/order.sell')

function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      if (end - start + 1 > MAX_LINES) found.push(`${path.basename(file)}:${start + 1} (${end - start + 1} lines)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('the sell page', () => {
  it('is a folder route: route.tsx beside its form components and its server module', () => {
    expect(existsSync(path.resolve(sellDir, '../order.sell.tsx'))).toBe(false)
    const files = readdirSync(sellDir)
    expect(files).toContain('route.tsx')
    expect(files.some((f) => f.endsWith('.server.ts'))).toBe(true)
  })

  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = readdirSync(sellDir).filter((f) => /\.tsx?$/.test(f))
    expect(files.flatMap((f) => longFunctions(path.join(sellDir, f)))).toEqual([])
  })
})
