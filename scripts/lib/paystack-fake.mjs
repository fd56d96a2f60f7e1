// `npm run try:payouts` (npm start --paystack-fake): the tests' local stand-in for Paystack
// (tests/support/paystack-fake.ts, which speaks Paystack's wire format and signs its webhooks),
// bundled on the spot and run inside the starting process, so automatic payouts can be tried on
// one machine with no account and no money. A transfer stays pending a few seconds, then the
// stand-in pays it and sends its webhook, as Paystack would.
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Starts the stand-in; `webhookUrl` receives its signed events. Answers its address, the secret key
 * it expects (a test key: the api accepts it only outside production) and a `close`.
 * @param {{ root: string, webhookUrl: string, payAfterMs: number, log?: (line: string) => void }} options
 */
export async function startPaystackFake({ root, webhookUrl, payAfterMs, log = () => {} }) {
  const { build } = await import('esbuild')
  const outfile = path.join(root, 'build', 'paystack-fake.mjs')
  await build({
    entryPoints: [path.join(root, 'tests', 'support', 'paystack-fake.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  })
  const { startFakePaystack } = await import(pathToFileURL(outfile).href)
  const fake = await startFakePaystack()
  fake.webhookUrl = webhookUrl
  let paying = false
  const timer = setInterval(() => {
    if (paying) return
    paying = true
    payDue(fake, payAfterMs, log).finally(() => (paying = false))
  }, 500)
  timer.unref()
  return {
    url: fake.url,
    secret: fake.secret,
    async close() {
      clearInterval(timer)
      await fake.close()
    },
  }
}

/** Pays every transfer pending for `afterMs` or more (its webhook follows); the api's polls find it too if the webhook is lost. */
async function payDue(fake, afterMs, log, now = Date.now()) {
  const due = [...fake.transfers.values()].filter((t) => t.status === 'pending' && now - Date.parse(t.createdAt) >= afterMs)
  for (const t of due) {
    try {
      const [status] = await fake.settle(t.reference, 'success')
      log(`paid ${t.reference} (${t.amount / 100} ${t.currency}); webhook answered HTTP ${status}`)
    } catch (err) {
      log(`paid ${t.reference}; its webhook was not delivered (${err.cause?.code ?? err.message}): the api's poll will find it`)
    }
  }
}
