import { z } from 'zod'
import { userNameField } from '#contract/profile'
import { fileIdField } from '#contract/uploads'

/**
 * Edit profile's schema, the same in the action and in the browser, which loads this module on the
 * form's first use (decision 059).
 */
export const profileSchema = z.object({
  userName: userNameField,
  /** A photo already uploaded (by the page's JavaScript, or with a form that was refused). */
  avatarId: fileIdField.optional(),
})
