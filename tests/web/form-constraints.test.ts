import { getZodConstraint } from '@conform-to/zod'
import { describe, expect, it } from 'vitest'
import { formConstraints } from '~/utils/form.server'
import { newPinSchema } from '~/utils/pin-schemas'

describe('formConstraints', () => {
  it("works out a schema's constraints once and gives every page the same, unchangeable answer", () => {
    const first = formConstraints({ 'set-pin': newPinSchema }).formConstraints['set-pin']
    const again = formConstraints({ 'set-pin': newPinSchema, other: newPinSchema }).formConstraints
    expect(first).toEqual(getZodConstraint(newPinSchema))
    expect(again['set-pin']).toBe(first)
    expect(again.other).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
  })
})
