import { describe, expect, it } from 'vitest'
import { profileApi } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { tasksApi, type GetTaskRewardData, type TaskInfo } from '#contract/tasks'
import { auditBooks } from '../../api/services/ledger'
import { seedUser, startTestApi, type TestApi } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, ops, sold, useSellingApi } from '../support/selling'
import { PIN, walletInfo, walletUser } from '../support/wallet'

/**
 * Task rewards through HTTP against the real api: progress counted from what the person really
 * did (PIN, bank account, completed orders), each reward credited once through the ledger —
 * repeated and in parallel — and every refusal changing nothing.
 */
const api = useSellingApi()

const tasksOf = async (a: TestApi, token: string): Promise<TaskInfo[]> => {
  const res = await a.get('/v1/user/index', { token })
  return profileApi.index.data.parse(res.body.data).taskInfos
}
const taskOf = async (a: TestApi, token: string, id: string) => (await tasksOf(a, token)).find((t) => t.id === id)
const claim = (a: TestApi, token: string, taskId: unknown) => a.post<GetTaskRewardData>('/v1/user/getTaskReward', { taskId }, { token })

/** Everything a claim could have changed, to show that a refusal changed none of it. */
async function footprint(a: TestApi, userId: string) {
  const count = (table: 'balance_logs' | 'notifications' | 'task_claims') =>
    a.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n))
  const wallet = await a.db.selectFrom('wallets').select(['balance', 'frozen']).where('user_id', '=', userId).executeTakeFirst()
  return {
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    entries: await count('balance_logs'),
    notifications: await count('notifications'),
    claims: await count('task_claims'),
  }
}

/** An order of one e-code card, completed by an operator as it happens for real. */
async function completedOrder(token: string) {
  const order = await sold(api, token, { cards: [{ faceValue: 1_000, cardCodes: [newCode()] }] })
  expect((await ops(api).claim(order.id)).body.code).toBe(200)
  expect((await ops(api).complete(order.id)).body.code).toBe(200)
  return order
}

describe('taskInfos in /v1/user/index', () => {
  it('a new person sees the four seeded tasks, none started, with the rewards of the settings', async () => {
    const { token } = await seedUser(api, { email: newEmail('tasks') })
    expect(await tasksOf(api, token)).toEqual([
      { id: 'set_pin', title: 'Set your withdrawal PIN', reward: 50_000, currency: 'NGN', progress: 0, target: 1, status: 'in_progress' },
      { id: 'add_bank_card', title: 'Add a bank account', reward: 50_000, currency: 'NGN', progress: 0, target: 1, status: 'in_progress' },
      {
        id: 'first_order',
        title: 'Complete your first order',
        reward: 100_000,
        currency: 'NGN',
        progress: 0,
        target: 1,
        status: 'in_progress',
      },
      { id: 'five_orders', title: 'Complete 5 orders', reward: 250_000, currency: 'NGN', progress: 0, target: 5, status: 'in_progress' },
    ])
  })

  it('setting a PIN and adding a bank account make those two claimable', async () => {
    const u = await walletUser(api, { card: false })
    expect((await taskOf(api, u.token, 'set_pin'))?.status).toBe('claimable')
    expect((await taskOf(api, u.token, 'add_bank_card'))?.status).toBe('in_progress')
    const withCard = await walletUser(api)
    expect(await taskOf(api, withCard.token, 'add_bank_card')).toMatchObject({ progress: 1, target: 1, status: 'claimable' })
  })

  it('a bank account counts once added: removing it does not take the task back', async () => {
    const u = await walletUser(api)
    expect((await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: PIN }, { token: u.token })).body.code).toBe(200)
    expect((await walletInfo(api, u.token)).bankCardCount).toBe(0)
    expect(await taskOf(api, u.token, 'add_bank_card')).toMatchObject({ progress: 1, status: 'claimable' })
    expect((await claim(api, u.token, 'add_bank_card')).body.code).toBe(200)
  })

  it('orders count only once completed: pending, cancelled and rejected ones do not', async () => {
    const { token } = await seedUser(api, { email: newEmail('orders') })
    const pending = await sold(api, token)
    const cancelled = await sold(api, token)
    await api.post('/v1/order/cancel', { id: cancelled.id }, { token })
    const rejected = await sold(api, token)
    await ops(api).claim(rejected.id)
    await ops(api).reject(rejected.id, 'INVALID_ECODE')
    expect(pending.status).toBe('pending')
    expect(await taskOf(api, token, 'first_order')).toMatchObject({ progress: 0, status: 'in_progress' })

    await completedOrder(token)
    expect(await taskOf(api, token, 'first_order')).toMatchObject({ progress: 1, target: 1, status: 'claimable' })
    expect(await taskOf(api, token, 'five_orders')).toMatchObject({ progress: 1, target: 5, status: 'in_progress' })
    for (let i = 0; i < 5; i++) await completedOrder(token)
    // Six completed orders: the progress stops at the target.
    expect(await taskOf(api, token, 'five_orders')).toMatchObject({ progress: 5, target: 5, status: 'claimable' })
    const res = await claim(api, token, 'five_orders')
    expect(res.body.code).toBe(200)
    expect(await taskOf(api, token, 'five_orders')).toMatchObject({ progress: 5, status: 'claimed', reward: 250_000 })
  })
})

describe('POST /v1/user/getTaskReward', () => {
  it('credits the reward once through the ledger, writes a message, and the task shows claimed', async () => {
    const u = await walletUser(api, { card: false })
    const res = await claim(api, u.token, 'set_pin')
    expect(res.status).toBe(200)
    const data = tasksApi.getTaskReward.data.parse(res.body.data)
    expect(data).toEqual({
      task: { id: 'set_pin', title: 'Set your withdrawal PIN', reward: 50_000, currency: 'NGN', progress: 1, target: 1, status: 'claimed' },
      balance: 50_000,
      currency: 'NGN',
    })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 50_000, frozen: 0 })
    const log = await api.get<{ list: unknown[] }>('/v1/user/pageBalanceLog', { token: u.token })
    expect(log.body.data.list).toEqual([
      expect.objectContaining({ type: 'task_reward', amount: 50_000, balanceAfter: 50_000, refType: 'task', refId: 'set_pin' }),
    ])
    const messages = await api.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', u.userId)
      .where('kind', '=', 'task')
      .execute()
    expect(messages).toEqual([
      expect.objectContaining({
        title: 'Task reward',
        content: '₦500.00 for "Set your withdrawal PIN" is in your wallet.',
        ref_id: 'set_pin',
      }),
    ])
    expect((await taskOf(api, u.token, 'set_pin'))?.status).toBe('claimed')

    // Sent again: refused, and nothing moves.
    const before = await footprint(api, u.userId)
    const again = await claim(api, u.token, 'set_pin')
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ code: Refusals.TASK_ALREADY_CLAIMED.code, msg: Refusals.TASK_ALREADY_CLAIMED.msg, data: null })
    expect(await footprint(api, u.userId)).toEqual(before)
  })

  it('20 claims sent at once credit once: one success, 19 "already claimed"', async () => {
    const u = await walletUser(api)
    const results = await Promise.all(Array.from({ length: 20 }, () => claim(api, u.token, 'add_bank_card')))
    const codes = results.map((r) => r.body.code)
    expect(codes.filter((c) => c === 200)).toHaveLength(1)
    expect(codes.filter((c) => c === Refusals.TASK_ALREADY_CLAIMED.code)).toHaveLength(19)
    // Two notifications: the saved bank account's own (decision 046) and the one reward.
    expect(await footprint(api, u.userId)).toEqual({ balance: 50_000, frozen: 0, entries: 1, notifications: 2, claims: 1 })
    // Both rewards of this person, claimed in parallel too: each once.
    const both = await Promise.all([...Array(5)].flatMap(() => [claim(api, u.token, 'set_pin'), claim(api, u.token, 'add_bank_card')]))
    expect(both.filter((r) => r.body.code === 200)).toHaveLength(1)
    expect(await footprint(api, u.userId)).toMatchObject({ balance: 100_000, entries: 2, claims: 2 })
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('a task not yet done is refused with its name, and nothing changes', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('notdone') })
    const before = await footprint(api, user.id)
    for (const [taskId, title] of [
      ['set_pin', 'Set your withdrawal PIN'],
      ['add_bank_card', 'Add a bank account'],
      ['first_order', 'Complete your first order'],
      ['five_orders', 'Complete 5 orders'],
    ]) {
      const res = await claim(api, token, taskId)
      expect(res.body).toEqual({ code: Refusals.TASK_NOT_DONE.code, msg: `Finish the task first: ${title}`, data: null })
    }
    expect(await footprint(api, user.id)).toEqual(before)
    expect((await tasksOf(api, token)).every((t) => t.status === 'in_progress')).toBe(true)
  })

  it('an unknown task is refused, and nothing changes', async () => {
    const u = await walletUser(api)
    const before = await footprint(api, u.userId)
    for (const taskId of ['nope', 'SET_PIN', 'set_pin ', '__proto__', 'constructor']) {
      const res = await claim(api, u.token, taskId)
      // Trimmed input is the same task; anything else is unknown.
      if (taskId === 'set_pin ') expect(res.body.code).toBe(200)
      else expect(res.body, taskId).toEqual({ code: Refusals.TASK_NOT_FOUND.code, msg: Refusals.TASK_NOT_FOUND.msg, data: null })
    }
    expect(await footprint(api, u.userId)).toMatchObject({ balance: before.balance + 50_000, claims: 1 })
  })

  it('bad bodies are 400 naming the field, never 500, and change nothing', async () => {
    const u = await walletUser(api)
    const before = await footprint(api, u.userId)
    const cases: [unknown, string][] = [
      [{}, 'taskId: Choose a task'],
      [{ taskId: '' }, 'taskId: Choose a task'],
      [{ taskId: '   ' }, 'taskId: Choose a task'],
      [{ taskId: 5 }, 'taskId: taskId must be text'],
      [{ taskId: null }, 'taskId: taskId must be text'],
      [{ taskId: ['set_pin'] }, 'taskId: taskId must be text'],
      [{ taskId: 'x'.repeat(65) }, 'taskId: taskId is too long'],
      [{ taskId: 'set_pin', amount: 1_000_000 }, 'amount: Unknown field'],
    ]
    for (const [body, msg] of cases) {
      const res = await api.post('/v1/user/getTaskReward', body, { token: u.token })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toEqual({ code: 400, msg, data: null })
    }
    const raw = await api.post('/v1/user/getTaskReward', undefined, {
      token: u.token,
      raw: '{"taskId":',
      headers: { 'content-type': 'application/json' },
    })
    expect(raw.status).toBe(400)
    expect(await footprint(api, u.userId)).toEqual(before)
  })

  it('needs a token', async () => {
    const res = await api.post('/v1/user/getTaskReward', { taskId: 'set_pin' })
    expect(res.status).toBe(401)
  })

  it('the books still balance', async () => {
    expect(await auditBooks(api.db)).toEqual([])
  })
})

describe('rewards are settings', () => {
  it('a reward of 0 switches a task off; another amount is what is listed and credited', async () => {
    const other = await startTestApi({
      config: { tasks: { rewards: { set_pin: 0, add_bank_card: 12_345, first_order: 100_000, five_orders: 250_000 } } },
    })
    try {
      const u = await walletUser(other)
      const tasks = await tasksOf(other, u.token)
      expect(tasks.map((t) => t.id)).toEqual(['add_bank_card', 'first_order', 'five_orders'])
      expect(tasks[0]).toMatchObject({ reward: 12_345, status: 'claimable' })
      expect((await claim(other, u.token, 'set_pin')).body.code).toBe(Refusals.TASK_NOT_FOUND.code)
      const res = await claim(other, u.token, 'add_bank_card')
      expect(res.body.data).toMatchObject({ balance: 12_345, task: { reward: 12_345, status: 'claimed' } })
      expect(await auditBooks(other.db)).toEqual([])
    } finally {
      await other.close()
    }
  })
})
