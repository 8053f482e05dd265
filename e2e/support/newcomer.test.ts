import { delimiter } from 'node:path'
import { describe, expect, it } from 'vitest'
import { newcomerEnv } from './newcomer.ts'

describe('newcomerEnv', () => {
  it('keeps only what a fresh shell has, without any node_modules/.bin, plus PORT and DATA_DIR', () => {
    const env = newcomerEnv(
      {
        PATH: ['/repo/node_modules/.bin', '/usr/local/bin', '/usr/bin'].join(delimiter),
        HOME: '/home/ada',
        TMPDIR: '/tmp',
        NODE_ENV: 'test',
        DATABASE_URL: 'postgres://x',
        APP_URL: 'http://localhost:3100',
        E2E_PORT: '3100',
      },
      { port: 3999, dataDir: 'data-newcomer-e2e' },
    )
    expect(env).toEqual({
      PATH: ['/usr/local/bin', '/usr/bin'].join(delimiter),
      HOME: '/home/ada',
      TMPDIR: '/tmp',
      PORT: '3999',
      DATA_DIR: 'data-newcomer-e2e',
    })
  })
})
