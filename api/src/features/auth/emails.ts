import type { OutgoingEmail } from '../../services/mailer.ts'

/** The email with a password reset link (valid one hour). */
export function passwordResetEmail(to: string, name: string, link: string): OutgoingEmail {
  return {
    to,
    subject: 'Reset your Reelgraph password',
    link,
    text: [
      `Hi ${name},`,
      '',
      'Someone asked to reset the password of your Reelgraph account. To choose a new password, open this link:',
      '',
      link,
      '',
      'The link works once, for one hour. If you did not ask for it, ignore this email: your password stays as it is.',
      '',
      '— Reelgraph',
    ].join('\n'),
  }
}

/** The email with an address verification link (valid two days). */
export function verificationEmail(to: string, name: string, link: string): OutgoingEmail {
  return {
    to,
    subject: 'Verify your email for Reelgraph',
    link,
    text: [
      `Welcome to Reelgraph, ${name}!`,
      '',
      'Please confirm that this is your email address by opening this link:',
      '',
      link,
      '',
      'The link works for two days. If you did not create a Reelgraph account, ignore this email.',
      '',
      '— Reelgraph',
    ].join('\n'),
  }
}
