import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseEmail, waitForEmail } from './mail.ts'

// Real messages, encoded by nodemailer as the app's mailer encodes them.
async function build(
  message: SendMailOptions,
  newline: 'unix' | 'windows' = 'unix',
): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline })
  const info = await transport.sendMail({ from: 'Reelgraph <no-reply@reelgraph.test>', ...message })
  return info.message as Buffer
}

// Longer than a 76-character line, so nodemailer must encode it (quoted-printable, soft breaks).
const LONG_LINK = `http://localhost:3100/reset-password?token=${'a1B2-c3D4_e5F6.'.repeat(8)}&email=Ana%40example.com`
const SUBJECT = 'Réinitialisez votre mot de passe – Reelgraph ✓'

describe('parseEmail', () => {
  for (const newline of ['unix', 'windows'] as const) {
    it(`decodes a quoted-printable body and an encoded subject (${newline} newlines)`, async () => {
      const raw = await build(
        {
          to: 'Ana Lima <Ana@Example.com>',
          subject: SUBJECT,
          text: `Olá Ana,\n\nOpen ${LONG_LINK}.\n\nIf it wasn't you, ignore this.`,
        },
        newline,
      )
      expect(raw.toString()).toContain('Content-Transfer-Encoding: quoted-printable')
      expect(raw.toString()).toMatch(/=\r?\n/) // the link really is split by soft breaks

      const email = parseEmail(raw)
      expect(email.to).toEqual(['ana@example.com'])
      expect(email.subject).toBe(SUBJECT)
      expect(email.text).toContain('Olá Ana,')
      expect(email.links).toEqual([LONG_LINK])
    })
  }

  it('reads the text/plain part of a multipart message, not the HTML', async () => {
    const raw = await build({
      to: 'bo@example.com',
      subject: 'Verify your email',
      text: `Verify: ${LONG_LINK}`,
      html: '<p><a href="http://localhost:3100/html-only">Verify</a></p>',
    })
    expect(raw.toString()).toContain('multipart/alternative')

    const email = parseEmail(raw)
    expect(email.text).toBe(`Verify: ${LONG_LINK}`)
    expect(email.links).toEqual([LONG_LINK])
  })

  it('decodes a base64 body', async () => {
    const raw = await build({
      to: 'bo@example.com',
      subject: 'Bem-vindo',
      text: `Confirme o seu endereço: ${LONG_LINK}\n`,
      textEncoding: 'base64',
    })
    expect(raw.toString()).toContain('Content-Transfer-Encoding: base64')

    const email = parseEmail(raw)
    expect(email.text).toBe(`Confirme o seu endereço: ${LONG_LINK}\n`)
    expect(email.links).toEqual([LONG_LINK])
  })

  it('falls back to the links of an HTML-only message', async () => {
    const raw = await build({
      to: 'bo@example.com',
      subject: 'Receipt',
      html: '<p><a href="http://localhost:3100/billing?a=1&amp;b=2">Open billing</a></p>',
    })
    const email = parseEmail(raw)
    expect(email.links).toEqual(['http://localhost:3100/billing?a=1&b=2'])
    expect(email.text).toContain('Open billing')
  })
})

describe('waitForEmail', () => {
  let dataDir: string
  let mailDir: string
  const savedDataDir = process.env.E2E_DATA_DIR

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-mail-'))
    mailDir = join(dataDir, 'mail')
    process.env.E2E_DATA_DIR = dataDir
  })
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true })
    if (savedDataDir === undefined) delete process.env.E2E_DATA_DIR
    else process.env.E2E_DATA_DIR = savedDataDir
  })

  async function deliver(name: string, message: SendMailOptions) {
    mkdirSync(mailDir, { recursive: true })
    writeFileSync(join(mailDir, name), await build(message))
  }

  it('returns the newest matching message, matching the address case-insensitively', async () => {
    await deliver('1.eml', {
      to: 'ana@example.com',
      subject: 'Reset your password',
      text: 'http://x.test/old',
    })
    await new Promise((resolve) => setTimeout(resolve, 20)) // distinct modification times
    await deliver('2.eml', {
      to: 'ana@example.com',
      subject: 'Reset your password',
      text: 'http://x.test/new',
    })
    await deliver('3.eml', {
      to: 'bo@example.com',
      subject: 'Reset your password',
      text: 'http://x.test/bo',
    })
    await deliver('4.eml', {
      to: 'ana@example.com',
      subject: 'Welcome',
      text: 'http://x.test/welcome',
    })

    const email = await waitForEmail('ANA@example.com', 'Reset')
    expect(email.links).toEqual(['http://x.test/new'])
    expect(Object.keys(email).sort()).toEqual(['links', 'subject', 'text'])
  })

  it('reads the mail of another app when given its data dir', async () => {
    const other = mkdtempSync(join(tmpdir(), 'e2e-mail-other-'))
    try {
      mkdirSync(join(other, 'mail'), { recursive: true })
      writeFileSync(
        join(other, 'mail', '1.eml'),
        await build({ to: 'vic@example.com', subject: 'Invitation', text: 'http://x.test/i' }),
      )
      const email = await waitForEmail('vic@example.com', 'Invitation', 2_000, other)
      expect(email.links).toEqual(['http://x.test/i'])
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })

  it('waits for a message that arrives later', async () => {
    setTimeout(() => {
      void deliver('late.eml', { to: 'ana@example.com', subject: SUBJECT, text: LONG_LINK })
    }, 300)
    const email = await waitForEmail('ana@example.com', 'Réinitialisez', 5_000)
    expect(email.subject).toBe(SUBJECT)
    expect(email.links).toEqual([LONG_LINK])
  })

  it('fails after the timeout, saying what mail there is', async () => {
    await deliver('1.eml', { to: 'bo@example.com', subject: 'Welcome', text: 'hi' })
    await expect(waitForEmail('ana@example.com', 'Reset', 300)).rejects.toThrow(
      /No email to ana@example\.com with a subject containing "Reset" within 300 ms[\s\S]*bo@example\.com: "Welcome"/,
    )
  })
})
