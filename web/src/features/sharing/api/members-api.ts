import {
  type AcceptedInvitation,
  acceptedInvitationSchema,
  type InvitationPreview,
  invitationPreviewSchema,
  type InviteMemberInput,
  type MemberRole,
  type ProjectInvitation,
  type ProjectMember,
  type ProjectMembers,
  type ProjectSummary,
  projectInvitationSchema,
  projectMemberSchema,
  projectMembersSchema,
} from '@reelgraph/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type ApiGetPath, getQueryFn, isApiError, parseAnswer } from '@/lib/api-client'
import { clearDeviceCopy } from '@/lib/device-copies'
import { projectQueryKey, removeFromList } from '@/lib/projects-api'
import { projectMembersKey, QUERY_KEYS } from '@/lib/query-keys'

/**
 * The membership calls of issue 6 item 1 as TanStack hooks. Answers are checked with the
 * shared schemas; failures are `ApiError`s whose `serverMessage` is shown as it is. No hook
 * toasts: callers do.
 */

/** What {@link useInviteMember} sends: the project and `{ email, role }`. */
export interface InviteMemberVariables extends InviteMemberInput {
  projectId: number
}

/** What {@link useChangeMemberRole} sends. */
export interface ChangeMemberRoleVariables {
  projectId: number
  userId: number
  role: MemberRole
}

/** What {@link useRemoveMember} and {@link useLeaveProject} send. */
export interface RemoveMemberVariables {
  projectId: number
  userId: number
}

/** What {@link useRevokeInvitation} sends. */
export interface RevokeInvitationVariables {
  projectId: number
  invitationId: number
}

/** `GET /api/invitations/:token`: what an invitation link offers (issue 6 item 1). */
function invitationPreviewKey(token: string) {
  return ['/invitations/{token}', token] as const satisfies readonly [ApiGetPath, string]
}

/** While the list is shown it is read again this often (ms): accepts and leaves show up. */
export const MEMBERS_REFRESH_MS = 10_000

/**
 * The members of a project, the caller's role and (owner only) the open invitations:
 * `GET /api/projects/:id/members`, refetched whenever a caller mounts (the cached list shows
 * meanwhile) and every MEMBERS_REFRESH_MS while mounted. Disabled while `enabled` is false.
 * @see issue 6 item 1
 */
export function useProjectMembers(projectId: number, enabled = true) {
  return useQuery<ProjectMembers>({
    queryKey: projectMembersKey(projectId),
    queryFn: getQueryFn({
      on401: 'throw',
      schema: projectMembersSchema,
      what: 'the members list',
      call: ({ signal }) =>
        api.GET('/projects/{id}/members', {
          params: { path: { id: String(projectId) } },
          signal,
        }),
    }),
    enabled,
    // Others join, leave and change while the dialog is shut: read it again on every open,
    // and now and then while it is open (someone accepting an invitation appears).
    staleTime: 0,
    refetchInterval: MEMBERS_REFRESH_MS,
  })
}

/**
 * Invites someone by email as editor or viewer:
 * `POST /api/projects/:id/invitations` -> 201 invitation. Fails with 409 `ALREADY_MEMBER`,
 * 400 (invite self, bad fields), 429. Refetches the members query on success.
 * @see issue 6 item 1
 */
export function useInviteMember() {
  const queryClient = useQueryClient()
  return useMutation<ProjectInvitation, Error, InviteMemberVariables>({
    mutationFn: async ({ projectId, email, role }) =>
      parseAnswer(
        projectInvitationSchema,
        (
          await api.POST('/projects/{id}/invitations', {
            params: { path: { id: String(projectId) } },
            body: { email, role },
          })
        ).data,
        'the invitation',
      ),
    onSuccess: (_invitation, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) }),
  })
}

/**
 * Revokes an open invitation (owner only): `DELETE /api/projects/:id/invitations/:id`.
 * @see issue 6 item 1
 */
export function useRevokeInvitation() {
  const queryClient = useQueryClient()
  return useMutation<void, Error, RevokeInvitationVariables>({
    mutationFn: async ({ projectId, invitationId }) => {
      await api.DELETE('/projects/{id}/invitations/{invitationId}', {
        params: { path: { id: String(projectId), invitationId: String(invitationId) } },
      })
    },
    onSuccess: (_data, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) }),
  })
}

/**
 * Changes a member's role (owner only): `PATCH /api/projects/:id/members/:userId` -> member.
 * @see issue 6 item 1
 */
export function useChangeMemberRole() {
  const queryClient = useQueryClient()
  return useMutation<ProjectMember, Error, ChangeMemberRoleVariables>({
    mutationFn: async ({ projectId, userId, role }) =>
      parseAnswer(
        projectMemberSchema,
        (
          await api.PATCH('/projects/{id}/members/{userId}', {
            params: { path: { id: String(projectId), userId: String(userId) } },
            body: { role },
          })
        ).data,
        'the role change',
      ),
    onSuccess: (_member, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) }),
  })
}

async function deleteMember({ projectId, userId }: RemoveMemberVariables): Promise<void> {
  await api.DELETE('/projects/{id}/members/{userId}', {
    params: { path: { id: String(projectId), userId: String(userId) } },
  })
}

/**
 * Removes a member (owner only): `DELETE /api/projects/:id/members/:userId` -> `{ ok: true }`.
 * The sync server closes their connections.
 * @see issue 6 item 1
 */
export function useRemoveMember() {
  const queryClient = useQueryClient()
  return useMutation<void, Error, RemoveMemberVariables>({
    mutationFn: deleteMember,
    onSuccess: (_data, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) }),
  })
}

/**
 * Leaves a project (a non-owner removes themself): the same DELETE with the caller's own
 * id. On success the project leaves the list cache, its queries are dropped and its copy on
 * this device is cleared (the caller navigates away).
 * @see issue 6 item 1
 */
export function useLeaveProject() {
  const queryClient = useQueryClient()
  return useMutation<void, Error, RemoveMemberVariables>({
    mutationFn: deleteMember,
    onSuccess: async (_data, { projectId }) => {
      queryClient.setQueryData<ProjectSummary[]>(QUERY_KEYS.projects, (list) =>
        removeFromList(list, projectId),
      )
      queryClient.removeQueries({ queryKey: projectQueryKey(projectId), exact: true })
      queryClient.removeQueries({ queryKey: projectMembersKey(projectId) })
      await clearDeviceCopy(projectId).catch((error: unknown) => {
        console.error('Could not clear the device copy of project', projectId, error)
      })
    },
  })
}

/**
 * What an invitation link offers, readable signed out: `GET /api/invitations/:token`.
 * A 404 (invalid or expired) is not retried. Disabled without a token.
 * @see issue 6 item 1
 */
export function useInvitationPreview(token: string | null) {
  return useQuery<InvitationPreview>({
    queryKey: invitationPreviewKey(token ?? ''),
    queryFn: getQueryFn({
      on401: 'throw',
      schema: invitationPreviewSchema,
      what: 'the invitation',
      call: ({ signal }) =>
        api.GET('/invitations/{token}', { params: { path: { token: token ?? '' } }, signal }),
    }),
    enabled: !!token,
    retry: (failures, error) => !isApiError(error, 404) && failures < 1,
  })
}

/**
 * Accepts an invitation as the signed-in user: `POST /api/invitations/accept { token }` ->
 * `{ projectId, role }`. 403 `FORBIDDEN` when signed in with another address, 404 when the
 * link is invalid. Refetches the projects list on success.
 * @see issue 6 item 1
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient()
  return useMutation<AcceptedInvitation, Error, { token: string }>({
    mutationFn: async ({ token }) =>
      parseAnswer(
        acceptedInvitationSchema,
        (await api.POST('/invitations/accept', { body: { token } })).data,
        'the invitation',
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUERY_KEYS.projects, exact: true }),
  })
}
