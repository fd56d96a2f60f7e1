import { availableParallelism } from 'node:os'
import { Code } from '#contract/envelope'
import { ApiError } from './envelope'
import { msg } from './messages'

/**
 * How many slow hashes run at once, and who waits for whom. A sign-in for an unknown address costs
 * a full hash (so it takes as long as a wrong password), which makes sign-in a CPU lever: 24
 * concurrent ones from rotating addresses took a real person's sign-in from 310 ms to 4 s. The gate
 * lets `slots` hashes run (one per core, at most 4: libuv's thread pool, shared with file and DNS
 * work, has 4 threads); the next ones wait their turn, at most `maxWaitMs`; whoever would wait
 * longer, or finds `maxQueue` already waiting in their line, is refused with HTTP 429 "Too many
 * requests, please try again later" at once, so a flood costs bounded CPU and bounded memory.
 *
 * Two lines, not one: a caller the api knows (`trusted`: a sign-in from a device or address this
 * person signed in from before) waits only behind other trusted callers and is served before any
 * stranger, so a flood of strangers from fresh addresses (every IPv6 /64 is a new one) can fill the
 * strangers' line and slow only itself. Within a line, first come first served.
 */
export type HashGateOptions = { slots?: number; maxQueue?: number; maxWaitMs?: number }

/** Whose turn comes first: a known caller's (`trusted`) before any `stranger`'s. */
export type HashPriority = 'trusted' | 'stranger'

export type HashGate = {
  run<T>(work: () => Promise<T>, priority?: HashPriority): Promise<T>
  /** Hashes running and waiting now (for tests and the benchmark). */
  readonly running: number
  readonly waiting: number
}

export const busy = () => new ApiError(429, Code.TOO_MANY_REQUESTS, msg.tooManyRequests)

type Waiter = { start(): void; timer: NodeJS.Timeout }

export function createHashGate(options: HashGateOptions = {}): HashGate {
  const slots = options.slots ?? Math.max(1, Math.min(availableParallelism(), 4))
  const maxQueue = options.maxQueue ?? 64
  const maxWaitMs = options.maxWaitMs ?? 1_500
  let running = 0
  const lines: Record<HashPriority, Waiter[]> = { trusted: [], stranger: [] }

  const next = () => {
    running--
    const waiter = lines.trusted.shift() ?? lines.stranger.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      running++
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
    async run(work, priority = 'stranger') {
      if (running >= slots) {
        const line = lines[priority]
        if (line.length >= maxQueue) throw busy()
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            start: resolve,
            timer: setTimeout(() => {
              line.splice(line.indexOf(waiter), 1)
              reject(busy())
            }, maxWaitMs),
          }
          line.push(waiter)
        })
      } else running++
      try {
        return await work()
      } finally {
        next()
      }
    },
  }
}
