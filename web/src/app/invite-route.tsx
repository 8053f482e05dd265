import { InvitePage } from '@/features/sharing/components/invite-page'
import { useAuth } from '@/features/auth/hooks/use-auth'

/**
 * /invite: the invitation page with the session from the auth feature. Signing out here
 * stays on the page, so the invited account can sign in next (issue 6 item 1).
 */
export function InviteRoute() {
  const { user, isLoading, logout } = useAuth()
  return (
    <InvitePage
      user={user}
      isLoadingUser={isLoading}
      onSignOut={() => logout.mutate()}
      isSigningOut={logout.isPending}
    />
  )
}
