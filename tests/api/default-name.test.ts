import { describe, expect, it } from 'vitest'
import type { UserIndexData } from '#contract/profile'
import { defaultUserName } from '../../api/services/google'
import { registerUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'

/** A new account's name is shown on trades: it never repeats part of the e-mail address. */
const api = useTestApi({ web: false })

describe('the name a new account starts with', () => {
  it('is a neutral "Seller NNNN" after sign-up with e-mail, not the address’s local part', async () => {
    const email = newEmail('ada.obi')
    const token = await registerUser(api, email)
    const info = (await api.get<UserIndexData>('/v1/user/index', { token })).body.data.userInfo!
    expect(info.userName).toMatch(/^Seller \d{4}$/)
    expect(info.userName).not.toContain('ada')
  })

  it('is the Google profile name when there is a usable one', () => {
    expect(defaultUserName('ada@gmail.com', 'Ada Obi')).toBe('Ada Obi')
    expect(defaultUserName('ada@gmail.com', '  ')).toMatch(/^Seller \d{4}$/)
    expect(defaultUserName('ada@gmail.com', '<script>')).toBe('script')
    expect(defaultUserName('ada@gmail.com')).toMatch(/^Seller \d{4}$/)
  })
})
