import type { Plan } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { requireUrl } from '../api/billing-api'
import {
  creditUsage,
  creditUsagePercent,
  currentPlan,
  formatPrice,
  hasPaidSubscription,
  orderPlans,
  statusLabel,
  storageView,
} from './billing-view'

const plan = (id: Plan['id'], credits: number): Plan => ({
  id,
  name: id,
  price: 0,
  credits,
  features: [],
})

describe('creditUsagePercent', () => {
  it('is the balance as a percentage of the plan credits, capped at 100', () => {
    expect(creditUsagePercent(50, 200)).toBe(25)
    expect(creditUsagePercent(350, 200)).toBe(100)
    expect(creditUsagePercent(0, 200)).toBe(0)
  })
  it('is 0 while the balance is unknown or the plan gives nothing', () => {
    expect(creditUsagePercent(null, 200)).toBe(0)
    expect(creditUsagePercent(10, 0)).toBe(0)
  })
})

describe('creditUsage (issue 14 item 7)', () => {
  it('counts plan credits against the plan allowance and shows purchased credits apart', () => {
    // Basic after buying a package: 162 plan credits left, 200 purchased (was "362 / 200").
    expect(creditUsage({ planCredits: 162, purchasedCredits: 200 }, plan('basic', 200))).toEqual({
      plan: { left: 162, allowance: 200, percent: 81 },
      purchased: 200,
    })
  })
  it('has no bar on the free plan, whose credits are not monthly', () => {
    expect(creditUsage({ planCredits: 0, purchasedCredits: 170 }, plan('free', 20))).toEqual({
      plan: null,
      purchased: 170,
    })
  })
  it('is null while the buckets or the plan load', () => {
    expect(creditUsage(null, plan('basic', 200))).toBeNull()
    expect(creditUsage({ planCredits: 1, purchasedCredits: 0 }, undefined)).toBeNull()
  })
})

describe('hasPaidSubscription', () => {
  it('is true for basic and pro, cancelling or not, and false for free', () => {
    expect(hasPaidSubscription('basic')).toBe(true)
    expect(hasPaidSubscription('pro_cancelling')).toBe(true)
    expect(hasPaidSubscription('free')).toBe(false)
  })
})

describe('statusLabel', () => {
  it('names free, active and cancelling statuses', () => {
    expect(statusLabel('free')).toBe('Free')
    expect(statusLabel('basic')).toBe('Active')
    expect(statusLabel('pro')).toBe('Active')
    expect(statusLabel('basic_cancelling')).toBe('Cancels at period end')
  })
})

describe('plans', () => {
  it('orders free, basic, pro and finds the current one', () => {
    const plans = orderPlans([plan('pro', 600), plan('free', 20), plan('basic', 200)])
    expect(plans.map((p) => p.id)).toEqual(['free', 'basic', 'pro'])
    expect(currentPlan(plans, 'pro_cancelling')?.id).toBe('pro')
    expect(currentPlan(undefined, 'pro')).toBeUndefined()
  })
})

describe('formatPrice', () => {
  it('formats US dollars', () => {
    expect(formatPrice(12)).toBe('$12.00')
    expect(formatPrice(-3.5)).toBe('-$3.50')
  })
})

describe('requireUrl', () => {
  it('answers the url, and throws the given message without one', () => {
    expect(requireUrl({ url: '/pay/1' }, 'no url')).toBe('/pay/1')
    expect(() => requireUrl({}, 'no url')).toThrow('no url')
    expect(() => requireUrl(null, 'no url')).toThrow('no url')
    expect(() => requireUrl({ url: '' }, 'no url')).toThrow('no url')
  })
})

describe('storageView (issue 40 item 5)', () => {
  const MIB = 1024 ** 2
  it('says what is used of the quota, in MB and GB', () => {
    expect(storageView({ usedBytes: 120 * MIB, quotaBytes: 1024 * MIB, planId: 'free' })).toEqual({
      words: '120 MB of 1 GB used',
      percent: 12,
    })
    expect(storageView({ usedBytes: 0, quotaBytes: 20 * 1024 * MIB, planId: 'basic' }).words).toBe(
      '0 MB of 20 GB used',
    )
  })
  it('shows a byte used on the bar and never more than a full bar', () => {
    expect(storageView({ usedBytes: 1, quotaBytes: 1024 * MIB, planId: 'free' }).percent).toBe(1)
    expect(storageView({ usedBytes: 1200 * MIB, quotaBytes: 1024 * MIB, planId: 'free' })).toEqual({
      words: '1.2 GB of 1 GB used',
      percent: 100,
    })
  })
})
