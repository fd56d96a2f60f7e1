import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

type AxeResult = { violations: { id: string; nodes: { target: string[] }[] }[] }

/**
 * axe-core's violations on the page, one line each: rule and targets. The whole document by
 * default (its title and language too), or only inside `scope`. Toasts are removed first unless
 * kept: one fading in or out is caught half-transparent and reads as low contrast. `rules`: only those.
 */
export async function axeViolations(
  page: Page,
  { scope, keepToasts = false, rules }: { scope?: string; keepToasts?: boolean; rules?: string[] } = {},
): Promise<string[]> {
  if (!keepToasts) await page.evaluate(() => document.querySelectorAll('.cl-toaster').forEach((t) => t.remove()))
  // A transition caught halfway (a button changing state as the page hydrates) reads as low
  // contrast: audit the page as it rests, once every finite animation has ended.
  const settled = () =>
    page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    )
  await settled()
  await page.evaluate(axeSource)
  const run = () =>
    page.evaluate(
      async ({ context, rules }) => {
        const { axe } = window as unknown as { axe: { run(context: string | Document, options: object): Promise<AxeResult> } }
        // `rules`: only these, enabled even when axe holds them back by default (target-size).
        const options = rules ? { runOnly: { type: 'rule', values: rules } } : {}
        const result = await axe.run(context ?? document, options)
        return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      },
      { context: scope, rules },
    )
  // A transition that began after the wait (a control changing state when a late answer comes)
  // is caught halfway too: a finding is read again once the page rests; a real one stays.
  const first = await run()
  if (first.length === 0) return first
  await page.waitForTimeout(500)
  await settled()
  return run()
}
