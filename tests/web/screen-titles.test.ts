import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mainTabs } from '~/components/tab-bar'
import { screens } from '~/utils/routes'
import { startWeb, type RunningWeb } from './web-app'

/**
 * Each screen's title is stated once, in the routes table: the Screen's h1 and the document's
 * <title> both come from it. Which screens sit above the tab bar is mainTabs' alone.
 */
const routesDir = path.resolve(__dirname, '../../app/routes')
function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? routeFiles(file) : /\.tsx$/.test(name) ? [file] : []
  })
}

describe('screen titles, once', () => {
  it('no route passes a title string of its own to <Screen>, nor restates one of the table', () => {
    const titles = new Set(screens.map((s) => s.title))
    for (const file of routeFiles(routesDir)) {
      const text = readFileSync(file, 'utf8')
      for (const [, attrs] of text.matchAll(/<Screen\b([^>]*)>/g)) {
        expect(attrs, file).not.toMatch(/\btitle\s*=\s*(["'`]|\{\s*["'`])/)
        const passed = /\btitle\s*=\s*\{([^}]*)\}/.exec(attrs)?.[1]?.trim()
        if (passed) expect(titles.has(passed), file).toBe(false)
      }
    }
  })

  it('no route says whether it sits above the tab bar (mainTabs does)', () => {
    for (const file of routeFiles(routesDir)) expect(readFileSync(file, 'utf8'), file).not.toMatch(/tabs:\s*true/)
    expect(mainTabs.map((tab) => tab.to).every((to) => screens.some((s) => s.path === to))).toBe(true)
  })

  describe('rendered', () => {
    let web: RunningWeb
    beforeAll(async () => {
      web = await startWeb()
    })
    afterAll(async () => {
      await web?.close()
    })

    it.each(['/login', '/user/privacy'])('%s shows the table title as its h1 and in <title>', async (pathname) => {
      const html = await (await fetch(`${web.url}${pathname}`)).text()
      const title = screens.find((s) => s.path === pathname)!.title
      expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toBe(title)
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toMatch(new RegExp(`^${title} - `))
    })
  })
})
