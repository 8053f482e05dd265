import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../env.ts'
import { passwordResetEmail } from '../features/auth/emails.ts'
import { createLogger } from '../lib/logger.ts'
import { createMailer, mailerFromEnv, PRODUCTION_MAIL_REQUIRED } from './mailer.ts'

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

describe('the mailer the settings ask for (issue 11 item 8)', () => {
  const TOKEN = 'reset-token-4f9c2a7e'
  const LINK = `https://reelgraph.example/reset-password?token=${TOKEN}`
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'reelgraph-mailer-'))
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  /** A logger whose every line is kept, as written. */
  function capturingLogger() {
    const lines: string[] = []
    return { lines, logger: pino({ level: 'trace' }, { write: (l: string) => void lines.push(l) }) }
  }

  it('refuses a production server with neither SMTP_URL nor MAIL_TO_FILES=true', () => {
    const { logger, lines } = capturingLogger()
    const env = loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir })
    expect(() => mailerFromEnv(env, logger)).toThrow(PRODUCTION_MAIL_REQUIRED)
    expect(PRODUCTION_MAIL_REQUIRED).toMatch(/SMTP_URL.*MAIL_TO_FILES=true/s)
    expect(lines).toEqual([])
  })

  it('in production with MAIL_TO_FILES=true, logs the recipient and file, never the link', async () => {
    const { logger, lines } = capturingLogger()
    const env = loadEnv({ NODE_ENV: 'production', MAIL_TO_FILES: 'true', DATA_DIR: dataDir })
    const mailer = mailerFromEnv(env, logger)
    await mailer.send(passwordResetEmail('ada@example.com', 'Ada', LINK))

    const log = lines.join('')
    expect(log).not.toContain(TOKEN)
    expect(log).not.toContain('reset-password')
    const written = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'email written to file')
    expect(written).toMatchObject({
      to: 'ada@example.com',
      subject: 'Reset your Reelgraph password',
    })
    expect(written.link).toBeUndefined()
    expect(written.file).toMatch(new RegExp(`^${join(dataDir, 'mail')}/.+\\.eml$`))
    // The email itself carries the link: the file is where it went.
    expect(await readFile(written.file, 'utf8')).toContain(TOKEN)
    expect(lines.map((l) => JSON.parse(l).msg)).toContain(
      'MAIL_TO_FILES=true: emails are written to files, nobody receives them',
    )
  })

  it('logs no link outside development either (tests, a staging NODE_ENV=test)', async () => {
    const { logger, lines } = capturingLogger()
    const mailer = mailerFromEnv(loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir }), logger)
    await mailer.send(passwordResetEmail('bob@example.com', 'Bob', LINK))
    expect(lines.join('')).not.toContain(TOKEN)
  })

  it('logs the link in development, where the log is the only inbox', async () => {
    const { logger, lines } = capturingLogger()
    const mailer = mailerFromEnv(loadEnv({ NODE_ENV: 'development', DATA_DIR: dataDir }), logger)
    await mailer.send(passwordResetEmail('cy@example.com', 'Cy', LINK))
    const written = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'email written to file')
    expect(written.link).toBe(LINK)
    expect((await readdir(join(dataDir, 'mail'))).length).toBeGreaterThanOrEqual(3)
  })

  it('uses SMTP in production when SMTP_URL is set, logging no link', async () => {
    const { logger, lines } = capturingLogger()
    const env = loadEnv({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:1',
      DATA_DIR: dataDir,
    })
    const mailer = mailerFromEnv(env, logger)
    await expect(mailer.send(passwordResetEmail('di@example.com', 'Di', LINK))).rejects.toThrow()
    expect(lines.join('')).not.toContain(TOKEN)
  })
})
