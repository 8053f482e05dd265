import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'
import type { Env } from '../env.ts'

/**
 * An email to send. `link` is the call to action; it carries a secret token, so it is
 * logged only by a development file mailer (`logLinks`), never in production.
 */
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
 * Why a production server will not start without a way to deliver email (issue 11 item 8):
 * people could not verify their address or reset a password, and the links (with their
 * tokens) must not end up in the log instead.
 */
export const PRODUCTION_MAIL_REQUIRED =
  'NODE_ENV=production needs SMTP_URL (e.g. smtps://user:password@smtp.example.com:465) so ' +
  'that verification and password reset emails reach people. To write emails to ' +
  'DATA_DIR/mail as .eml files instead (nobody receives them: a demo or a private server), ' +
  'set MAIL_TO_FILES=true.'

/**
 * The mailer the settings ask for (ARCHITECTURE decision 9, issue 11 item 8): SMTP when
 * `SMTP_URL` is set, else `.eml` files in `DATA_DIR/mail`. A development server also logs
 * each email's link (there is no inbox); a production one never does.
 * @throws Error ({@link PRODUCTION_MAIL_REQUIRED}) under NODE_ENV=production with neither
 *   SMTP_URL nor MAIL_TO_FILES=true: call it before anything else starts.
 * @see issue 11 item 8
 */
export function mailerFromEnv(
  env: Pick<Env, 'NODE_ENV' | 'SMTP_URL' | 'MAIL_TO_FILES' | 'DATA_DIR' | 'MAIL_FROM'>,
  logger: Logger,
): Mailer {
  const mailDir = join(env.DATA_DIR, 'mail')
  if (!env.SMTP_URL && env.NODE_ENV === 'production') {
    if (!env.MAIL_TO_FILES) throw new Error(PRODUCTION_MAIL_REQUIRED)
    logger.warn(
      { mailDir },
      'MAIL_TO_FILES=true: emails are written to files, nobody receives them',
    )
  }
  return createMailer({
    smtpUrl: env.SMTP_URL,
    mailDir,
    from: env.MAIL_FROM,
    logger,
    logLinks: env.NODE_ENV === 'development',
  })
}

/**
 * The mailer of ARCHITECTURE decision 9: SMTP through nodemailer when `smtpUrl` is set,
 * else each message is written as an RFC 822 `.eml` file in `mailDir` and logged with its
 * recipient and file (the embedded default, where nobody has an SMTP server). The link,
 * which carries a secret token, is logged only with `logLinks` (development).
 */
export function createMailer(options: {
  smtpUrl?: string | undefined
  mailDir: string
  from: string
  logger: Logger
  /** Log each file email's link too (development only: links carry secret tokens). */
  logLinks?: boolean | undefined
}): Mailer {
  const { smtpUrl, mailDir, from, logger, logLinks = false } = options
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
      // In development there is no inbox, so the log is where a developer finds the link;
      // anywhere else the log says where the email is, never what secret it carries.
      const link = logLinks ? { link: email.link } : {}
      logger.info({ to: email.to, subject: email.subject, file, ...link }, 'email written to file')
    },
  }
}
