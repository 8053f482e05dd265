import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadSyncEnv, SYNC_SETTING_NAMES, syncSettingLookalikes } from './env.ts'

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

  it('names look-alike variables, in the error too (issue 11 item 9)', () => {
    expect(SYNC_SETTING_NAMES).toEqual(expect.arrayContaining(['SYNC_PORT', 'REDIS_URL']))
    expect(
      syncSettingLookalikes({ DATABASE_URL: 'postgres://u@db/r', SYNC_PROT: '4000', PORT: '3000' }),
    ).toEqual([{ name: 'SYNC_PROT', suggestion: 'SYNC_PORT', reason: 'similar' }])
    expect(() => loadSyncEnv({ DATABSE_URL: 'postgres://u@db:5432/reelgraph' })).toThrow(
      /DATABASE_URL: .*\n {2}DATABSE_URL is set but is not a setting, so it changes nothing: did you mean DATABASE_URL\?/s,
    )
  })

  it('the standalone process logs a warning for each look-alike at boot', async () => {
    // Port 1 refuses connections: the process warns, then fails to migrate and exits.
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./server.ts', import.meta.url))],
      {
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: 'postgres://u@127.0.0.1:1/r',
          SYNC_PROT: '4000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    const warnings = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .filter((l) => l.level === 40)
    expect(warnings.map((w) => [w.variable, w.suggestion, w.msg])).toEqual([
      [
        'SYNC_PROT',
        'SYNC_PORT',
        'SYNC_PROT is set but is not a setting, so it changes nothing: did you mean SYNC_PORT?',
      ],
    ])
  })
})
