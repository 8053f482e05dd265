import { z } from 'zod'
import { emailSchema, tokenSchema } from './auth.ts'

/**
 * Teams: project members, their roles and email invitations (issue 6 item 1).
 *
 * - `owner`: everything, and the only one who shares, changes roles, removes members,
 *   and deletes the project. Exactly one per project (its creator).
 * - `editor`: edits the canvas (live and through REST), renames, generates into it.
 * - `viewer`: opens the project read-only; the sync server refuses their writes.
 * A user who is not a member gets 404 for the project, its assets and its document.
 */
export const PROJECT_ROLES = ['owner', 'editor', 'viewer'] as const
export const projectRoleSchema = z.enum(PROJECT_ROLES).meta({ id: 'ProjectRole' })
export type ProjectRole = z.infer<typeof projectRoleSchema>

/** The roles an invitation or a role change can give (ownership does not move). */
export const MEMBER_ROLES = ['editor', 'viewer'] as const
export const memberRoleSchema = z.enum(MEMBER_ROLES, {
  error: 'Choose a role: editor or viewer.',
})
export type MemberRole = z.infer<typeof memberRoleSchema>

/** What each role is called in the interface. */
export const PROJECT_ROLE_LABELS: Record<ProjectRole, string> = {
  owner: 'Owner',
  editor: 'Can edit',
  viewer: 'Can view',
}

/** True when `role` may change the project's graph (owner, editor). */
export function canEditProject(role: ProjectRole | null | undefined): boolean {
  return role === 'owner' || role === 'editor'
}

/** An invitation link works for 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** The web route an invitation email links to: `${APP_URL}/invite?token=<secret>`. */
export const INVITATION_PATH = '/invite'

/** Messages of the membership calls (shown as they are). */
export const MEMBER_MESSAGES = {
  ownerOnly: 'Only the project’s owner can do this.',
  editorsOnly: 'You can view this project but not change it. Ask its owner for edit access.',
  alreadyMember: 'This person is already a member of the project.',
  inviteSelf: 'You are already the owner of this project.',
  ownerCannotLeave:
    'The owner can’t leave their own project. Delete it instead, or keep it shared.',
  ownerRoleFixed: 'The owner’s role can’t be changed.',
  memberNotFound: 'This person is not a member of the project.',
  invitationNotFound: 'This invitation does not exist any more.',
  invitationInvalid: 'This invitation link is invalid or has expired. Ask for a new one.',
  invitationWrongAccount:
    'This invitation was sent to another email address. Sign in with that address to accept it.',
} as const

/** `POST /api/projects/:id/invitations` body: who to invite, and as what. */
export const inviteMemberInput = z
  .object({ email: emailSchema, role: memberRoleSchema })
  .meta({ id: 'InviteMemberInput' })
export type InviteMemberInput = z.infer<typeof inviteMemberInput>

/** `PATCH /api/projects/:id/members/:userId` body: the member's new role. */
export const changeMemberRoleInput = z
  .object({ role: memberRoleSchema })
  .meta({ id: 'ChangeMemberRoleInput' })
export type ChangeMemberRoleInput = z.infer<typeof changeMemberRoleInput>

/** `POST /api/invitations/accept` body: the secret from the email's link. */
export const acceptInvitationInput = z
  .object({ token: tokenSchema })
  .meta({ id: 'AcceptInvitationInput' })
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>

/** One member of a project. Dates are ISO 8601. */
export const projectMemberSchema = z
  .object({
    userId: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: projectRoleSchema,
    joinedAt: z.string(),
  })
  .meta({ id: 'ProjectMember' })
export type ProjectMember = z.infer<typeof projectMemberSchema>

/** An invitation not yet accepted (only the owner sees these). */
export const projectInvitationSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role: memberRoleSchema,
    invitedAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'ProjectInvitation' })
export type ProjectInvitation = z.infer<typeof projectInvitationSchema>

/**
 * `GET /api/projects/:id/members`: the caller's own role, the members (owner first, then by
 * name) and, for the owner, the open invitations (empty for everyone else).
 */
export const projectMembersSchema = z
  .object({
    role: projectRoleSchema,
    members: z.array(projectMemberSchema),
    invitations: z.array(projectInvitationSchema),
  })
  .meta({ id: 'ProjectMembers' })
export type ProjectMembers = z.infer<typeof projectMembersSchema>

/** `GET /api/invitations/:token`: what the link offers, shown before accepting. */
export const invitationPreviewSchema = z
  .object({
    projectName: z.string(),
    inviterName: z.string(),
    role: memberRoleSchema,
    /** The address invited: accepting needs an account with it. */
    email: z.string(),
  })
  .meta({ id: 'InvitationPreview' })
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>

/** `POST /api/invitations/accept` answer: the project joined and the role held. */
export const acceptedInvitationSchema = z
  .object({ projectId: z.number().int(), role: projectRoleSchema })
  .meta({ id: 'AcceptedInvitation' })
export type AcceptedInvitation = z.infer<typeof acceptedInvitationSchema>
