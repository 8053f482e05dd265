import { INVITATION_PATH, type MemberRole } from '@reelgraph/shared'
import type { OutgoingEmail } from '../../services/mailer.ts'

/** What each role may do, in an invitation's words. */
const ROLE_WORDS: Record<MemberRole, string> = {
  editor: 'as an editor: you can edit the canvas and generate into it',
  viewer: 'as a viewer: you can open the project and follow changes live',
}

/** The accept link of an invitation: `${appUrl}/invite?token=<secret>`. */
export function invitationLink(appUrl: string, secret: string): string {
  return `${appUrl}${INVITATION_PATH}?token=${secret}`
}

/**
 * The email inviting `to` to a project (issue 6 item 1): subject
 * "<inviter> invited you to <project> on Reelgraph", the role, the accept `link` and its
 * 7-day validity.
 */
export function invitationEmail(input: {
  to: string
  inviterName: string
  projectName: string
  role: MemberRole
  link: string
}): OutgoingEmail {
  const { to, inviterName, projectName, role, link } = input
  return {
    to,
    subject: `${inviterName} invited you to ${projectName} on Reelgraph`,
    link,
    text: [
      'Hi,',
      '',
      `${inviterName} invited you to the project “${projectName}” on Reelgraph, ${ROLE_WORDS[role]}.`,
      '',
      'To join, open this link and sign in (or create an account) with this email address:',
      '',
      link,
      '',
      'The link works for 7 days. If you did not expect this invitation, ignore this email.',
      '',
      '— Reelgraph',
    ].join('\n'),
  }
}
