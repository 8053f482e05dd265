import { createServer } from 'node:net'
import { delimiter, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appProcessEnv, freePort, HOST_SETTINGS_TO_DROP } from './app-process.ts'

describe('appProcessEnv', () => {
  it('drops the host’s shared services, puts the repo’s Node first and adds the settings', () => {
    const env = appProcessEnv(
      { PATH: '/usr/bin', HOME: '/home/ada', DATABASE_URL: 'postgres://x', OPENAI_API_KEY: 'k' },
      { PORT: '3200', AI_IMAGE_PROVIDER: 'automatic1111' },
      '/repo',
    )
    expect(env).toEqual({
      PATH: [join('/repo', 'node_modules', '.bin'), '/usr/bin'].join(delimiter),
      HOME: '/home/ada',
      PORT: '3200',
      AI_IMAGE_PROVIDER: 'automatic1111',
    })
    for (const name of HOST_SETTINGS_TO_DROP) expect(env).not.toHaveProperty(name)
  })
})

describe('freePort', () => {
  it('gives a port that can be listened on', async () => {
    const port = await freePort()
    expect(port).toBeGreaterThan(0)
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', resolve)
    })
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
})
