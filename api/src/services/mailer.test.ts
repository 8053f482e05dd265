import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../lib/logger.ts'
import { createMailer } from './mailer.ts'

describe('the SMTP mailer', () => {
  const received: { from: string; to: string[]; data: string }[] = []
  let server: SMTPServer
  let port: number

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = ''
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString()
        })
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('delivers over SMTP when SMTP_URL is set', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      mailDir: '/nonexistent',
      from: 'Reelgraph <no-reply@reelgraph.test>',
      logger: createLogger('silent'),
    })
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Hello',
      text: 'Open https://example.com/x',
    })
    expect(received).toHaveLength(1)
    expect(received[0]?.to).toEqual(['ada@example.com'])
    expect(received[0]?.from).toBe('no-reply@reelgraph.test')
    expect(received[0]?.data).toMatch(/Subject: Hello/)
  })

  it('throws when the SMTP server is unreachable, so nothing is dropped silently', async () => {
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      mailDir: '/nonexistent',
      from: 'a@b.c',
      logger: createLogger('silent'),
    })
    await expect(mailer.send({ to: 'a@example.com', subject: 'x', text: 'y' })).rejects.toThrow()
  })
})
