import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as root from '~/root'
import * as tasks from '~/routes/tasks'
import { tasksFlow } from '~/upstream/tasks.server'
import { transportMessages } from '~/utils/messages'
import { seedUser } from '../support/api'
import { closedPort } from '../support/fault-upstream'
import { newEmail, useTestApi } from '../support/kit'
import { walletInfo, walletUser } from '../support/wallet'
import { call, jsonOf, load, loadContextFor, makeRequest, signedInJar, submit } from '../support/web'
import { startWeb } from './web-app'

/** The Rewards screen and the Claim action every task list posts to, with real Requests against the real api. */
const api = useTestApi()

const indexCalls = () => api.logs.filter((line) => line.includes('"path":"/v1/user/index"')).length
const claimCalls = () => api.logs.filter((line) => line.includes('"path":"/v1/user/getTaskReward"')).length
/** The api logs a request when it has answered it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('/tasks loader', () => {
  it('sends a visitor to sign in and back', async () => {
    expect(await load(tasks.loader, '/tasks')).toHaveRedirect('/login?redirectTo=%2Ftasks')
  })

  it('lists every task with its progress, from the real tables', async () => {
    const u = await walletUser(api, { card: false })
    const data = await jsonOf(await load(tasks.loader, '/tasks', await signedInJar(u.token)))
    expect(data.tasks.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      ['set_pin', 'claimable'],
      ['add_bank_card', 'in_progress'],
      ['first_order', 'in_progress'],
      ['five_orders', 'in_progress'],
    ])
    expect(data.tasks[0]).toEqual({
      id: 'set_pin',
      title: 'Set your withdrawal PIN',
      reward: 50_000,
      currency: 'NGN',
      progress: 1,
      target: 1,
      status: 'claimable',
    })
  })

  it('costs no api call of its own: the root and the screen share one /v1/user/index per request', async () => {
    const { token } = await seedUser(api, { email: newEmail('memo') })
    const jar = await signedInJar(token)
    const request = () => makeRequest('/tasks', { jar })
    const context = loadContextFor(request())
    await settle()
    const before = indexCalls()
    const [rootData, screenData] = await Promise.all([
      call(root.loader, request(), {}, undefined, context),
      call(tasks.loader, request(), {}, undefined, context),
    ])
    expect((await jsonOf(rootData)).user.userId).toBeTruthy()
    expect((await jsonOf(screenData)).tasks).toHaveLength(4)
    // Home and Account read the tasks with the same flow, so they too pay nothing extra.
    expect((await tasksFlow(request(), context)).success).toBe(true)
    await settle()
    expect(indexCalls() - before).toBe(1)
  })
})

describe('/tasks action: Claim', () => {
  it('sends a visitor to sign in, claiming nothing', async () => {
    const before = claimCalls()
    expect(await submit(tasks.action, '/tasks', { taskId: 'set_pin' })).toHaveRedirect('/login')
    await settle()
    expect(claimCalls()).toBe(before)
  })

  it('credits a finished task and comes back to /tasks with "₦500.00 added to your wallet"', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const res = await submit(tasks.action, '/tasks', { taskId: 'set_pin' }, jar)
    expect(res).toHaveRedirect('/tasks')
    await expect(res).toSendToast({ type: 'success', message: '₦500.00 added to your wallet' })
    expect((await walletInfo(api, u.token)).balance).toBe(50_000)
    const data = await jsonOf(await load(tasks.loader, '/tasks', jar))
    expect(data.tasks[0]).toMatchObject({ id: 'set_pin', status: 'claimed' })
  })

  it('comes back to the page the list was on (Home, Account), and only to a path of this site', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const home = await submit(tasks.action, '/tasks', { taskId: 'set_pin', redirectTo: '/' }, jar)
    expect(home).toHaveRedirect('/')
    await expect(home).toSendToast({ type: 'success' })
    const account = await submit(tasks.action, '/tasks', { taskId: 'add_bank_card', redirectTo: '/account' }, jar)
    expect(account).toHaveRedirect('/account')
    for (const redirectTo of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      'javascript:alert(1)',
      '/\u3000/x',
    ]) {
      const res = await submit(tasks.action, '/tasks', { taskId: 'set_pin', redirectTo }, jar)
      expect(res, redirectTo).toHaveRedirect('/tasks')
    }
  })

  it('a refusal comes back as an error toast, and moves no money', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const notDone = await submit(tasks.action, '/tasks', { taskId: 'add_bank_card', redirectTo: '/' }, jar)
    expect(notDone).toHaveRedirect('/')
    await expect(notDone).toSendToast({ type: 'error', message: 'Finish the task first: Add a bank account' })
    const unknown = await submit(tasks.action, '/tasks', { taskId: 'free_money' }, jar)
    expect(unknown).toHaveRedirect('/tasks')
    await expect(unknown).toSendToast({ type: 'error', message: 'This task was not found' })
    await submit(tasks.action, '/tasks', { taskId: 'set_pin' }, jar)
    const again = await submit(tasks.action, '/tasks', { taskId: 'set_pin' }, jar)
    await expect(again).toSendToast({ type: 'error', message: 'You already claimed this reward' })
    expect((await walletInfo(api, u.token)).balance).toBe(50_000)
  })

  it('a missing, empty or over-long taskId is "Choose a task to claim", without asking the api', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    await settle()
    const before = claimCalls()
    const forms: Record<string, string>[] = [{}, { taskId: '' }, { taskId: '  ' }, { taskId: 'x'.repeat(65) }, { task: 'set_pin' }]
    for (const form of forms) {
      const res = await submit(tasks.action, '/tasks', form, jar)
      expect(res, JSON.stringify(form)).toHaveRedirect('/tasks')
      await expect(res).toSendToast({ type: 'error', message: 'Choose a task to claim' })
    }
    await settle()
    expect(claimCalls()).toBe(before)
    expect((await walletInfo(api, u.token)).balance).toBe(0)
  })

  it('a body that is not a form is answered, never a 500', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    for (const [type, body] of [
      ['application/json', '{"taskId":"set_pin"}'],
      ['text/plain', 'taskId=set_pin'],
      ['application/x-www-form-urlencoded', '%%%=%zz&taskId=%E0%A4%A'],
    ]) {
      const request = new Request('http://localhost:3000/tasks', {
        method: 'POST',
        headers: { 'Content-Type': type, Cookie: jar.header() },
        body,
      })
      const res = await call(tasks.action, request)
      expect(res.status, `${type} ${body}`).toBeLessThan(500)
    }
    expect((await walletInfo(api, u.token)).balance).toBe(0)
  })

  describe('while the api cannot be reached', () => {
    let saved: string | undefined
    beforeAll(async () => {
      saved = process.env.API_BASE_URL
      process.env.API_BASE_URL = await closedPort()
    })
    afterAll(() => {
      process.env.API_BASE_URL = saved
    })

    it('the screen answers 503 with the catalogue message; a claim comes back with it as a toast', async () => {
      const jar = await signedInJar('some-token')
      const page = await load(tasks.loader, '/tasks', jar)
      expect(page.status).toBe(503)
      expect(await jsonOf(page)).toEqual({ message: transportMessages.refused })
      const res = await submit(tasks.action, '/tasks', { taskId: 'set_pin', redirectTo: '/' }, jar)
      expect(res).toHaveRedirect('/')
      await expect(res).toSendToast({ type: 'error', message: transportMessages.refused })
    })
  })
})

describe('Rewards on Home and Account (the real render over HTTP)', () => {
  /** The task titles in the page's "Rewards to earn" list, in order. */
  const listed = (html: string) => {
    const list = /<ul class="cl-tasks" aria-label="Rewards to earn">(.*?)<\/ul>/s.exec(html)?.[1] ?? ''
    return [...list.matchAll(/class="cl-task__title"[^>]*>([^<]+)</g)].map((m) => m[1])
  }

  it('show what to do next, not the whole list: a reward to claim first, then the next task, two in all, and See all', async () => {
    const web = await startWeb()
    try {
      const u = await walletUser(api, { card: false }) // PIN set: its reward waits to be claimed
      const cookie = (await signedInJar(u.token)).header()
      for (const page of ['/', '/account']) {
        const html = (await (await fetch(`${web.url}${page}`, { headers: { cookie } })).text()).replace(/<!-- -->/g, '')
        expect(listed(html), page).toEqual(['Set your withdrawal PIN', 'Add a bank account'])
        expect(html, page).toMatch(/Claim<span class="cl-visually-hidden"> reward for Set your withdrawal PIN/)
        expect(html, page).toContain('href="/tasks"')
      }
      // Claimed, the PIN task leaves; the next two to do take its place.
      await api.post('/v1/user/getTaskReward', { taskId: 'set_pin' }, { token: u.token })
      const home = await (await fetch(`${web.url}/`, { headers: { cookie } })).text()
      expect(listed(home)).toEqual(['Add a bank account', 'Complete your first order'])
    } finally {
      await web.close()
    }
  })
})
