import { describe, expect, it } from 'vitest'
import { loadSyncEnv } from './env.ts'

describe('loadSyncEnv', () => {
  it('needs DATABASE_URL and defaults the rest', () => {
    expect(() => loadSyncEnv({})).toThrow(/DATABASE_URL/)
    const env = loadSyncEnv({ DATABASE_URL: 'postgres://u@db:5432/reelgraph' })
    expect(env).toMatchObject({
      SYNC_PORT: 3001,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      allowedOrigins: [],
      secureCookies: false,
    })
  })

  it('derives allowed origins and secure cookies', () => {
    const env = loadSyncEnv({
      DATABASE_URL: 'postgres://u@db:5432/reelgraph',
      NODE_ENV: 'production',
      APP_URL: 'https://reelgraph.example/app',
      ALLOWED_ORIGINS: 'https://other.example, ',
      SYNC_PORT: '4000',
    })
    expect(env.allowedOrigins).toEqual(['https://reelgraph.example', 'https://other.example'])
    expect(env.secureCookies).toBe(true)
    expect(env.SYNC_PORT).toBe(4000)
  })

  it('reads an optional REDIS_URL (empty means none)', () => {
    const base = { DATABASE_URL: 'postgres://u@db:5432/reelgraph' }
    expect(loadSyncEnv(base).REDIS_URL).toBeUndefined()
    expect(loadSyncEnv({ ...base, REDIS_URL: '' }).REDIS_URL).toBeUndefined()
    expect(loadSyncEnv({ ...base, REDIS_URL: 'redis://cache:6379' }).REDIS_URL).toBe(
      'redis://cache:6379',
    )
    expect(() => loadSyncEnv({ ...base, REDIS_URL: 'nope' })).toThrow(/REDIS_URL/)
  })

  it('lists every bad variable', () => {
    let message = ''
    try {
      loadSyncEnv({ DATABASE_URL: 'nope', SYNC_PORT: 'x', LOG_LEVEL: 'loud' })
    } catch (err) {
      message = (err as Error).message
    }
    for (const name of ['DATABASE_URL', 'SYNC_PORT', 'LOG_LEVEL']) expect(message).toContain(name)
  })
})
