import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  describeLookalike,
  editDistance,
  findLookalikeSettings,
  settingPrefixes,
} from './settings.ts'

/** A few of the api's real setting names (the apps pass their whole schemas). */
const KNOWN = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'APP_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'BILLING_SANDBOX',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_BASIC',
  'S3_BUCKET',
  'S3_SECRET_ACCESS_KEY',
  'S3_ACCESS_KEY_ID',
  'COST_IMAGE',
  'SYNC_PORT',
]

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0)
    expect(editDistance('PORT', '')).toBe(4)
    expect(editDistance('REDIS_URI', 'REDIS_URL')).toBe(1)
    expect(editDistance('LOGLEVEL', 'LOG_LEVEL')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })

  it('is a metric: zero only for equal strings, symmetric, triangle inequality', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
        expect(editDistance(a, b) === 0).toBe(a === b)
        expect(editDistance(a, b)).toBe(editDistance(b, a))
        expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c))
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length))
      }),
    )
  })
})

describe('settingPrefixes', () => {
  it('takes the first word of every name of two words or more, leaving Node’s NODE_ out', () => {
    expect(
      settingPrefixes(['NODE_ENV', 'PORT', 'STRIPE_SECRET_KEY', 'S3_BUCKET', 'SMTP_URL']),
    ).toEqual(['REELGRAPH_', 'S3_', 'SMTP_', 'STRIPE_'])
  })
})

describe('findLookalikeSettings', () => {
  it('finds SANDBOX_BILLING, the docker-compose typo of issue 11 item 9', () => {
    expect(findLookalikeSettings(['SANDBOX_BILLING'], KNOWN)).toEqual([
      { name: 'SANDBOX_BILLING', suggestion: 'BILLING_SANDBOX', reason: 'similar' },
    ])
  })

  it('finds names a few edits away, and the same words in another order or case', () => {
    const found = findLookalikeSettings(
      ['REDIS_URI', 'LOGLEVEL', 'MAIL_FORM', 'database_url', 'TRUST_PROXIES', 'SANDBOX_BILING'],
      KNOWN,
    )
    expect(found.map((f) => [f.name, f.suggestion, f.reason])).toEqual([
      ['LOGLEVEL', 'LOG_LEVEL', 'similar'],
      ['MAIL_FORM', 'MAIL_FROM', 'similar'],
      ['REDIS_URI', 'REDIS_URL', 'similar'],
      ['SANDBOX_BILING', 'BILLING_SANDBOX', 'similar'],
      ['TRUST_PROXIES', 'TRUST_PROXY', 'similar'],
      ['database_url', 'DATABASE_URL', 'similar'],
    ])
  })

  it('finds unknown names with a settings prefix, suggesting the one sharing most words', () => {
    const found = findLookalikeSettings(
      ['SMTP_HOST', 'STRIPE_KEY', 'S3_SECRET_KEY', 'REELGRAPH_MODE', 'SYNC_REPLICAS'],
      KNOWN,
    )
    expect(found).toEqual([
      { name: 'REELGRAPH_MODE', suggestion: undefined, reason: 'prefix' },
      { name: 'S3_SECRET_KEY', suggestion: 'S3_SECRET_ACCESS_KEY', reason: 'prefix' },
      { name: 'SMTP_HOST', suggestion: 'SMTP_URL', reason: 'prefix' },
      { name: 'STRIPE_KEY', suggestion: 'STRIPE_SECRET_KEY', reason: 'prefix' },
      { name: 'SYNC_REPLICAS', suggestion: 'SYNC_PORT', reason: 'prefix' },
    ])
  })

  it('leaves known names, other programs’ variables and platform service links alone', () => {
    const environment = [
      ...KNOWN,
      'PATH',
      'HOME',
      'HOSTNAME',
      'PWD',
      'TERM',
      'LANG',
      'TZ',
      'NODE_OPTIONS',
      'NODE_VERSION',
      'NODE_EXTRA_CA_CERTS',
      'YARN_VERSION',
      'npm_config_cache',
      'npm_lifecycle_event',
      'TEST_DATABASE_URL',
      'AWS_REGION',
      'REDIS_SERVICE_HOST',
      'REDIS_SERVICE_PORT',
      'REDIS_PORT_6379_TCP_ADDR',
    ]
    expect(findLookalikeSettings(environment, KNOWN)).toEqual([])
  })

  it('never reports names read by someone else (alsoRead), and checks extra prefixes', () => {
    expect(
      findLookalikeSettings(['STRIPE_ACCOUNT', 'ACME_TOKEN'], KNOWN, {
        alsoRead: ['STRIPE_ACCOUNT'],
        prefixes: ['ACME_'],
      }),
    ).toEqual([{ name: 'ACME_TOKEN', suggestion: undefined, reason: 'prefix' }])
  })

  it('never reports a known name, whatever else is set', () => {
    fc.assert(
      fc.property(
        fc.subarray(KNOWN),
        fc.array(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/)),
        (set, other) => {
          const names = findLookalikeSettings([...set, ...other], KNOWN).map((f) => f.name)
          for (const name of set) expect(names).not.toContain(name)
        },
      ),
    )
  })
})

describe('describeLookalike', () => {
  it('says what is wrong and what to set instead', () => {
    expect(
      describeLookalike({
        name: 'SANDBOX_BILLING',
        suggestion: 'BILLING_SANDBOX',
        reason: 'similar',
      }),
    ).toBe(
      'SANDBOX_BILLING is set but is not a setting, so it changes nothing: did you mean BILLING_SANDBOX?',
    )
    expect(describeLookalike({ name: 'REELGRAPH_MODE', reason: 'prefix' })).toBe(
      'REELGRAPH_MODE is set but is not a setting, so it changes nothing (see .env.example for every setting)',
    )
  })
})
