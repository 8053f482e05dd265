import { INVITATION_PATH, type MemberRole, type ProjectMember } from '@reelgraph/shared'

/** Pure helpers of the Share dialog and the invitation page (issue 6 item 1). */

/** The roles an owner can give, in the order the selects list them. */
export const ASSIGNABLE_ROLES: readonly MemberRole[] = ['editor', 'viewer']

/** The role a select's value names, or null for anything else. */
export function roleOfValue(value: string): MemberRole | null {
  return ASSIGNABLE_ROLES.find((r) => r === value) ?? null
}

/** Where an invitation link points in this app: `/invite?token=<token>`. */
export function invitePath(token: string): string {
  return `${INVITATION_PATH}?token=${encodeURIComponent(token)}`
}

/** How the invitation page treats the visitor. */
export type InviteAudience = 'signed-out' | 'invited-account' | 'other-account'

/**
 * Who is looking at an invitation: nobody signed in, the invited address (may accept), or
 * another account (must sign in with the invited one). Addresses compare case-insensitively.
 */
export function inviteAudience(
  user: { email: string } | null | undefined,
  invitedEmail: string,
): InviteAudience {
  if (!user) return 'signed-out'
  return sameEmail(user.email, invitedEmail) ? 'invited-account' : 'other-account'
}

/** True when two addresses are the same, ignoring case and surrounding spaces. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/** "an editor", "a viewer": the role as the invitation sentence says it. */
export function roleNoun(role: MemberRole): string {
  return role === 'editor' ? 'an editor' : 'a viewer'
}

/** The member who is the signed-in user, or null (the "(you)" marker, leaving). */
export function selfMember(
  members: readonly ProjectMember[],
  userId: number | null | undefined,
): ProjectMember | null {
  if (userId == null) return null
  return members.find((m) => m.userId === userId) ?? null
}
