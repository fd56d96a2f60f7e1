import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractApis } from '#contract/index'

/**
 * One word per thing (decision 028): the notifications domain says "notifications" in every
 * layer; "messages" names only the catalogues of sentences a person reads.
 */
const root = path.resolve(__dirname, '../..')
const SOURCE_DIRS = ['contract', 'api', 'app', 'server', 'scripts', 'tests']

/** The text catalogues: the only files whose names say message. */
const CATALOGUES = [
  'api/lib/messages.ts',
  'app/ops/messages.ts',
  'app/utils/messages.ts',
  'app/utils/notify-messages.ts',
  'app/utils/pin-messages.ts',
  'app/utils/refusal-messages.ts',
  'app/utils/selling-messages.ts',
  'app/utils/shell-messages.ts',
  'app/utils/task-messages.ts',
  'server/messages.ts',
]

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mjs|css)$/.test(name) ? [p] : []
  })
}

const sources = SOURCE_DIRS.flatMap((d) => files(path.join(root, d))).map((f) => path.relative(root, f).split(path.sep).join('/'))

describe('the notifications domain is called notifications', () => {
  it('the contract has a notifications domain and no messages domain', () => {
    expect(Object.keys(contractApis)).toContain('notifications')
    expect(Object.keys(contractApis).filter((k) => /message/i.test(k))).toEqual([])
  })

  it('the only files named after messages are the text catalogues', () => {
    expect(sources.filter((f) => /message/i.test(path.basename(f))).sort()).toEqual(CATALOGUES)
  })

  it('no code names a notification a message: no Message type, messages table or message flow', () => {
    // The call names pageMessage and readMessage are SPEC's paths and stay; Message-ID is an e-mail header (RFC 5322).
    const old =
      /\b(Message(?!-ID)|MessageKind|messageSchema|messageIdField|messagesApi|ReadMessage(Body|Data)|MessagesTable|MESSAGE_NOT_FOUND|addMessage|pageMessages|findOwnMessage|messagePage(Flow)?|readMessageFlow|messagesRoutes|MessageRow|messageHref)\b|(selectFrom|insertInto|updateTable|deleteFrom)\(\s*['"`]messages['"`]/
    const offenders = sources
      .filter((f) => !f.includes('/migrations/') && f !== 'tests/api/vocabulary.test.ts' && f !== 'tests/api/db.test.ts')
      .filter((f) => old.test(readFileSync(path.join(root, f), 'utf8')))
    expect(offenders).toEqual([])
  })
})
