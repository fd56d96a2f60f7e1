import type { ApiDeps } from '../deps'
import { createHashGate, type HashGate } from './hash-gate'
import { createSecretsBox, type SecretsBox } from './secrets-box'
import { createStorage, type Storage } from './storage'

/**
 * What selling needs beyond ApiDeps, built once per api from its settings (api/app.ts): the photo
 * storage, the e-code cipher, and a gate for image work. Re-encoding a photo takes a core and
 * tens of megabytes for a moment, so a few run at once and a bounded line waits its
 * turn for a bounded time; past that the upload answers 429 at once (api/lib/hash-gate.ts).
 */
export type SellingDeps = ApiDeps & { storage: Storage; codes: SecretsBox; imageGate: HashGate }

export function withSelling(deps: ApiDeps): SellingDeps {
  return {
    ...deps,
    storage: createStorage(deps.config.selling.storage),
    codes: createSecretsBox(deps.config.selling.codesKey),
    imageGate: createHashGate({ slots: 2, maxQueue: 32, maxWaitMs: 15_000 }),
  }
}
