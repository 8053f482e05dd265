import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, type RateLimitRules } from '../../config.ts'
import { createRateLimits, type RateLimits } from '../../services/rate-limiter.ts'
import { logIn, registerUser } from './auth-service.ts'

const PASSWORD = 'paper lantern river'
const ACCOUNT_CEILING = 10
/** The default per-address limits, and a per-account ceiling small enough to reach quickly. */
const RULES: RateLimitRules = {
  ...DEFAULT_RATE_LIMITS,
  loginFailuresPerAccount: { points: ACCOUNT_CEILING, durationSeconds: 3600, blockSeconds: 3600 },
}
const PER_ACCOUNT_AND_IP = DEFAULT_RATE_LIMITS.loginFailuresPerAccountAndIp.points

describe.each(testDatabaseKinds())('login lockout on $name', (kind) => {
  let database: TestDatabase
  let limits: RateLimits
  let counter = 0

  beforeAll(async () => {
    database = await kind.create()
    limits = createRateLimits(RULES, { kind: 'postgres', db: database.db })
  })
  afterAll(() => database.dispose())

  async function newAccount() {
    const email = `owner${++counter}@example.com`
    await registerUser(database.db, { name: 'Owner', email, password: PASSWORD })
    return email
  }

  /** The outcome of one sign-in: 'ok', or the error code. */
  async function attempt(email: string, password: string, address: string): Promise<string> {
    try {
      await logIn({ db: database.db, limits, input: { email, password }, clientAddress: address })
      return 'ok'
    } catch (err) {
      return (err as { code?: string }).code ?? String(err)
    }
  }

  async function attempts(n: number, email: string, password: string, address: string) {
    const outcomes: string[] = []
    for (let i = 0; i < n; i++) outcomes.push(await attempt(email, password, address))
    return outcomes
  }

  const failures = (n: number) => Array<string>(n).fill('INVALID_CREDENTIALS')
  const refusals = (n: number) => Array<string>(n).fill('RATE_LIMITED')

  it("does not let a stranger's failures from another address block the owner's address", async () => {
    const email = await newAccount()
    expect(await attempts(12, email, 'wrong password', '203.0.113.9')).toEqual([
      ...failures(PER_ACCOUNT_AND_IP),
      ...refusals(12 - PER_ACCOUNT_AND_IP),
    ])
    // The stranger stays blocked, even with the right password; the owner is not.
    expect(await attempt(email, PASSWORD, '203.0.113.9')).toBe('RATE_LIMITED')
    expect(await attempt(email, PASSWORD, '198.51.100.7')).toBe('ok')
    expect(await attempt(email, 'typo', '198.51.100.7')).toBe('INVALID_CREDENTIALS')
    expect(await attempt(email, PASSWORD, '198.51.100.7')).toBe('ok')
  })

  it('stops a many-address attack at the per-account ceiling; refused attempts spend none of it', async () => {
    const email = await newAccount()
    // One address's refused attempts do not count towards the account's ceiling ...
    await attempts(20, email, 'wrong password', '203.0.113.1')
    const others = ACCOUNT_CEILING - PER_ACCOUNT_AND_IP
    const outcomes = []
    for (let i = 0; i < others + 3; i++)
      outcomes.push(await attempt(email, `guess ${i}`, `198.18.0.${i + 1}`))
    // ... so exactly the ceiling is checked, then every address is refused, right password too.
    expect(outcomes).toEqual([...failures(others), ...refusals(3)])
    expect(await attempt(email, PASSWORD, '198.18.1.1')).toBe('RATE_LIMITED')
  })

  it('gives a successful sign-in its count back and forgets the failures from its address', async () => {
    const email = await newAccount()
    const address = '192.0.2.44'
    // More successes than the account's ceiling: none of them counts.
    expect(await attempts(ACCOUNT_CEILING + 2, email, PASSWORD, address)).toEqual(
      Array(ACCOUNT_CEILING + 2).fill('ok'),
    )
    // Typos just under the limit, a success, and the owner has the full allowance again.
    const typos = PER_ACCOUNT_AND_IP - 1
    expect(await attempts(typos, email, 'typo', address)).toEqual(failures(typos))
    expect(await attempt(email, PASSWORD, address)).toBe('ok')
    expect(await attempts(PER_ACCOUNT_AND_IP + 1, email, 'typo', address)).toEqual([
      ...failures(PER_ACCOUNT_AND_IP),
      'RATE_LIMITED',
    ])
  })

  it('checks at most the limit of a parallel burst of guesses', async () => {
    const email = await newAccount()
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `guess ${i}`))
    const outcomes = await Promise.all(guesses.map((g) => attempt(email, g, '203.0.113.77')))
    const checked = outcomes.filter((o) => o !== 'RATE_LIMITED')
    expect(checked.length).toBeLessThanOrEqual(PER_ACCOUNT_AND_IP)
    expect(outcomes.filter((o) => o === 'RATE_LIMITED')).toHaveLength(30 - checked.length)
  })
})
