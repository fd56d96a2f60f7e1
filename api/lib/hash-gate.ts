import { availableParallelism } from 'node:os'
import { Code } from '#contract/envelope'
import { ApiError } from './envelope'
import { msg } from './messages'

/**
 * How many slow hashes run at once. A sign-in for an unknown address costs a full hash (so it takes
 * as long as a wrong password), which makes sign-in a CPU lever: 24 concurrent ones from rotating
 * addresses took a real person's sign-in from 310 ms to 4 s. The gate lets `slots` hashes run (one
 * per core, at most 4: libuv's thread pool, shared with file and DNS work, has 4 threads); the next
 * ones wait in line, first come first served, at most `maxWaitMs`; whoever would wait longer, or
 * finds `maxQueue` already waiting, is refused with HTTP 429 "Too many requests, please try again
 * later" at once, so a flood costs bounded CPU and bounded memory and a person is answered quickly
 * either way.
 */
export type HashGateOptions = { slots?: number; maxQueue?: number; maxWaitMs?: number }

export type HashGate = {
  run<T>(work: () => Promise<T>): Promise<T>
  /** Hashes running and waiting now (for tests and the benchmark). */
  readonly running: number
  readonly waiting: number
}

export const busy = () => new ApiError(429, Code.TOO_MANY_REQUESTS, msg.tooManyRequests)

export function createHashGate(options: HashGateOptions = {}): HashGate {
  const slots = options.slots ?? Math.max(1, Math.min(availableParallelism(), 4))
  const maxQueue = options.maxQueue ?? 64
  const maxWaitMs = options.maxWaitMs ?? 1_500
  let running = 0
  const queue: { start(): void; timer: NodeJS.Timeout }[] = []

  const next = () => {
    running--
    const waiter = queue.shift()
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
      return queue.length
    },
    async run(work) {
      if (running >= slots) {
        if (queue.length >= maxQueue) throw busy()
        await new Promise<void>((resolve, reject) => {
          const waiter = {
            start: resolve,
            timer: setTimeout(() => {
              queue.splice(queue.indexOf(waiter), 1)
              reject(busy())
            }, maxWaitMs),
          }
          queue.push(waiter)
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
