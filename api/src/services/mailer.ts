import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'

/** An email to send. `link` is the call to action (logged in file mode only). */
export interface OutgoingEmail {
  to: string
  subject: string
  text: string
  html?: string
  link?: string
}

/** Sends email. Implementations never drop a message silently: they deliver or throw. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>
}

/** SMTP connection timeouts in ms: a slow relay must not hold a request for long. */
const SMTP_TIMEOUT_MS = 10_000

/**
 * The mailer of ARCHITECTURE decision 9: SMTP through nodemailer when `smtpUrl` is set,
 * else each message is written as an RFC 822 `.eml` file in `mailDir` and its link logged
 * (the embedded default, where nobody has an SMTP server).
 */
export function createMailer(options: {
  smtpUrl?: string | undefined
  mailDir: string
  from: string
  logger: Logger
}): Mailer {
  const { smtpUrl, mailDir, from, logger } = options
  if (smtpUrl) {
    const url = new URL(smtpUrl)
    const transport: Transporter = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    })
    return {
      async send(email) {
        await transport.sendMail({
          from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
        })
        logger.info({ subject: email.subject }, 'email sent')
      },
    }
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  })
  let sequence = 0
  return {
    async send(email) {
      const info = await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      })
      await mkdir(mailDir, { recursive: true })
      sequence += 1
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const file = join(mailDir, `${stamp}-${process.pid}-${sequence}.eml`)
      await writeFile(file, info.message as Buffer)
      // Embedded mode only: there is no inbox, so the log is where a developer finds the link.
      logger.info(
        { to: email.to, subject: email.subject, file, link: email.link },
        'email written to file',
      )
    },
  }
}
