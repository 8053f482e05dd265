import type { Plan } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { requireUrl } from '../../../lib/billing-api'
import {
  creditUsagePercent,
  currentPlan,
  formatPrice,
  orderPlans,
  statusLabel,
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
