import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's violations on the page (or inside `scope`), one line each: rule and targets. */
export async function axeViolations(page: Page, scope = 'body'): Promise<string[]> {
  await page.evaluate(() => document.querySelectorAll('.cl-toaster').forEach((t) => t.remove()))
  await page.evaluate(axeSource)
  return page.evaluate(async (context) => {
    const result = await (
      window as unknown as { axe: { run(context: string): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
    ).axe.run(context)
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }, scope)
}
