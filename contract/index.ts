import { accountsApi } from './accounts'
import type { Endpoint } from './endpoint'
import { profileApi } from './profile'

/** Every api call the contract binds, by domain. A new domain adds its record set here. */
export const contractApis = { accounts: accountsApi, profile: profileApi } as const

export const allEndpoints: Endpoint[] = Object.values(contractApis).flatMap((api) => Object.values(api) as Endpoint[])
