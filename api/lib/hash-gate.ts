import { availableParallelism } from 'node:os'
import { Code } from '#contract/envelope'
import { ApiError } from './envelope'
import { msg } from './messages'

/**
 * How many slow hashes run at once, and who waits for whom. A sign-in for an unknown address costs
 * a full hash (so it takes as long as a wrong password), which makes sign-in a CPU lever: a few
 * dozen concurrent ones from rotating addresses made a real person's sign-in many times slower
 * (docs/performance.md). The gate
 * lets `slots` hashes run (one per core, at most 4: libuv's thread pool, shared with file and DNS
 * work, has 4 threads); the next ones wait their turn, at most `maxWaitMs`; whoever would wait
 * longer, or finds `maxQueue` already waiting in their line, is refused with HTTP 429 "Too many
 * requests, please try again later" at once, so a flood costs bounded CPU and bounded memory.
 *
 * Two lines, not one: a caller the api knows (`trusted`: a sign-in from a device or address this
 * person signed in from before) waits only behind other trusted callers and is served before any
 * stranger, so a flood of strangers from fresh addresses (every IPv6 /64 is a new one) can fill the
 * strangers' line and slow only itself. Within a line, first come first served. Strangers never hold
 * every slot (with more than one): one stays for a known caller, who then never waits for a
 * stranger's hash to end, and in a flood one core stays free for the event loop. `full` says when
 * a caller would be refused, so a flood is turned away before any database work (decision 025).
 */
export type HashGateOptions = { slots?: number; maxQueue?: number; maxWaitMs?: number }

/** Whose turn comes first: a known caller's (`trusted`) before any `stranger`'s. */
export type HashPriority = 'trusted' | 'stranger'

export type HashGate = {
  run<T>(work: () => Promise<T>, priority?: HashPriority): Promise<T>
  /** True when a caller of this priority would be refused now: every slot it may take busy, its line full. */
  full(priority?: HashPriority): boolean
  /** Hashes running and waiting now (for tests and the benchmark). */
  readonly running: number
  readonly waiting: number
}

export const busy = () => new ApiError(429, Code.TOO_MANY_REQUESTS, msg.tooManyRequests)

type Waiter = { start(): void; timer: NodeJS.Timeout; priority: HashPriority }

export function createHashGate(options: HashGateOptions = {}): HashGate {
  const slots = options.slots ?? Math.max(1, Math.min(availableParallelism(), 4))
  const maxQueue = options.maxQueue ?? 64
  const maxWaitMs = options.maxWaitMs ?? 1_500
  const strangerSlots = slots > 1 ? slots - 1 : slots
  let running = 0
  let strangersRunning = 0
  const lines: Record<HashPriority, Waiter[]> = { trusted: [], stranger: [] }
  const mayStart = (priority: HashPriority) => running < slots && (priority === 'trusted' || strangersRunning < strangerSlots)
  const started = (priority: HashPriority) => {
    running++
    if (priority === 'stranger') strangersRunning++
  }

  const next = (finished: HashPriority) => {
    running--
    if (finished === 'stranger') strangersRunning--
    const waiter = lines.trusted.shift() ?? (mayStart('stranger') ? lines.stranger.shift() : undefined)
    if (waiter) {
      clearTimeout(waiter.timer)
      started(waiter.priority)
      waiter.start()
    }
  }

  return {
    get running() {
      return running
    },
    get waiting() {
      return lines.trusted.length + lines.stranger.length
    },
    full(priority = 'stranger') {
      return !mayStart(priority) && lines[priority].length >= maxQueue
    },
    async run(work, priority = 'stranger') {
      if (!mayStart(priority)) {
        const line = lines[priority]
        if (line.length >= maxQueue) throw busy()
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            priority,
            start: resolve,
            timer: setTimeout(() => {
              line.splice(line.indexOf(waiter), 1)
              reject(busy())
            }, maxWaitMs),
          }
          line.push(waiter)
        })
      } else started(priority)
      try {
        return await work()
      } finally {
        next(priority)
      }
    },
  }
}
