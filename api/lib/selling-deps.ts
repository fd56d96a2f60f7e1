import type { ApiDeps } from '../deps'
import { createHashGate, type HashGate } from './hash-gate'
import { createSecretsBox, type SecretsBox } from './secrets-box'
import { createStorage, type Storage } from './storage'

/**
 * What selling needs beyond ApiDeps, built once per api from its settings (api/app.ts): the photo
 * storage, the e-code cipher, and a gate for image work. Re-encoding a photo takes a core for up
 * to a few hundred milliseconds and tens of megabytes, so two run at once and up to 32 wait their
 * turn for 15 s; past that the upload answers 429 at once (api/lib/hash-gate.ts).
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
