import { randomUUID } from 'node:crypto'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, type RateLimitRules } from '../config.ts'
import { AppError } from '../lib/app-error.ts'
import { createRateLimits, type RateLimit, type RateLimitStore } from './rate-limiter.ts'

const REDIS_URL = process.env.REDIS_URL
const POINTS = 5
const RULES: RateLimitRules = {
  ...DEFAULT_RATE_LIMITS,
  registrationsPerIp: { points: POINTS, durationSeconds: 60, blockSeconds: 60 },
}

/** Consumes `n` events for `key` at once; counts those let through and those refused. */
async function burst(limit: RateLimit, key: string, n: number) {
  const results = await Promise.allSettled(
    Array.from({ length: n }, () => limit.consume(key, 'Too many.')),
  )
  const refused = results.filter((r) => r.status === 'rejected')
  for (const r of refused) {
    expect(r.reason).toBeInstanceOf(AppError)
    expect((r.reason as AppError).status).toBe(429)
  }
  return { passed: n - refused.length, refused: refused.length }
}

/** The same behaviour on every store, for two processes' worth of limiters (`a`, `b`). */
function behavesAsOneLimit(stores: () => [RateLimitStore, RateLimitStore]) {
  let key: string
  let a: RateLimit
  let b: RateLimit

  beforeAll(() => {
    const [first, second] = stores()
    a = createRateLimits(RULES, first).registrationsPerIp
    b = createRateLimits(RULES, second).registrationsPerIp
  })

  const newKey = () => {
    key = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID()}`
    return key
  }

  it('lets exactly the limit through a parallel burst and refuses the rest with 429', async () => {
    expect(await burst(a, newKey(), 40)).toEqual({ passed: POINTS, refused: 40 - POINTS })
    await expect(a.consume(key, 'Too many.')).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many\. Try again in \d+ seconds\.$/),
    })
  })

  it('shares the counts between two processes on one store', async () => {
    newKey()
    await a.consume(key, 'Too many.')
    await b.consume(key, 'Too many.')
    expect(await burst(b, key, 3)).toEqual({ passed: POINTS - 2, refused: 0 })
    await expect(a.consume(key, 'Too many.')).rejects.toMatchObject({ status: 429 })
    // A parallel burst split across both processes still gets the limit once.
    newKey()
    const [fromA, fromB] = await Promise.all([burst(a, key, 20), burst(b, key, 20)])
    expect(fromA.passed + fromB.passed).toBe(POINTS)
  })

  it('gives a counted event back (reward) and forgets a key (reset), across processes', async () => {
    newKey()
    expect(await burst(a, key, POINTS)).toEqual({ passed: POINTS, refused: 0 })
    await b.reward(key)
    await a.consume(key, 'Too many.')
    await expect(b.consume(key, 'Too many.')).rejects.toMatchObject({ status: 429 })
    await a.reset(key)
    expect(await burst(b, key, POINTS)).toEqual({ passed: POINTS, refused: 0 })
  })
}

describe('rate limits in memory (unit tests only)', () => {
  const shared: RateLimitStore = { kind: 'memory' }
  let limit: RateLimit
  beforeAll(() => {
    limit = createRateLimits(RULES, shared).registrationsPerIp
  })

  it('lets exactly the limit through a parallel burst', async () => {
    expect(await burst(limit, 'a', 40)).toEqual({ passed: POINTS, refused: 35 })
  })

  it('counts in each limiter object alone, as separate processes would', async () => {
    const other = createRateLimits(RULES).registrationsPerIp
    expect(await burst(limit, 'b', POINTS)).toEqual({ passed: POINTS, refused: 0 })
    expect(await burst(other, 'b', POINTS)).toEqual({ passed: POINTS, refused: 0 })
  })
})

describe.each(testDatabaseKinds())('rate limits in the database on $name', (kind) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await kind.create()
  })
  afterAll(() => database.dispose())

  behavesAsOneLimit(() => [
    { kind: 'postgres', db: database.db },
    { kind: 'postgres', db: database.db },
  ])
})

describe.skipIf(!REDIS_URL)('rate limits in Redis', () => {
  // Two connections, as two processes have; one prefix per run so parallel runs never meet.
  const prefix = `rate-limit-test-${randomUUID()}`
  const clients = REDIS_URL ? [new Redis(REDIS_URL), new Redis(REDIS_URL)] : []
  afterAll(async () => {
    const keys = await clients[0]!.keys(`${prefix}:*`)
    if (keys.length > 0) await clients[0]!.del(...keys)
    await Promise.all(clients.map((c) => c.quit()))
  })

  behavesAsOneLimit(() => [
    { kind: 'redis', client: clients[0]!, prefix },
    { kind: 'redis', client: clients[1]!, prefix },
  ])
})
