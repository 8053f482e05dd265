import { describe, expect, it } from 'vitest'
import { type PlanId, parseSubscriptionStatus, planTransition } from './billing.ts'

describe('spec §4 Plan transitions', () => {
  it.each<[string, PlanId, string]>([
    // Selecting the plan that is already active does nothing.
    ['free', 'free', 'none'],
    ['basic', 'basic', 'none'],
    ['pro', 'pro', 'none'],
    // Free to paid: a checkout.
    ['free', 'basic', 'checkout'],
    ['free', 'pro', 'checkout'],
    // Pro to basic (not cancelling): a downgrade through the portal.
    ['pro', 'basic', 'portal-downgrade'],
    // Any paid plan to free: the portal, falling back to cancel at period end.
    ['basic', 'free', 'downgrade-to-free'],
    ['pro', 'free', 'downgrade-to-free'],
    // Cancelling to another paid plan: reactivation through a checkout.
    ['basic_cancelling', 'pro', 'reactivate'],
    ['pro_cancelling', 'basic', 'reactivate'],
    ['basic_cancelling', 'basic', 'reactivate'],
    // Cancelling to free: already set to cancel.
    ['basic_cancelling', 'free', 'already-cancelling'],
    ['pro_cancelling', 'free', 'already-cancelling'],
    // Other changes go through a checkout.
    ['basic', 'pro', 'checkout'],
  ])('%s -> %s is %s', (status, target, kind) => {
    expect(planTransition(status, target).kind).toBe(kind)
  })

  it('says that a cancelling subscription is already set to cancel', () => {
    const t = planTransition('pro_cancelling', 'free')
    expect(t).toEqual({
      kind: 'already-cancelling',
      message: expect.stringMatching(/already set to cancel/),
    })
  })

  it('reads unknown statuses as free', () => {
    expect(parseSubscriptionStatus('mystery')).toEqual({ planId: 'free', cancelling: false })
    expect(parseSubscriptionStatus('free_cancelling')).toEqual({
      planId: 'free',
      cancelling: false,
    })
    expect(parseSubscriptionStatus('pro_cancelling')).toEqual({ planId: 'pro', cancelling: true })
  })
})
