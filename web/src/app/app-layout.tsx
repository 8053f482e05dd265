import type { ReactNode } from 'react'
import { useLocation } from 'wouter'
import { Header } from '@/components/layout/header'
import { PublicHeader } from '@/components/layout/public-header'
import { EmailVerificationBanner } from '@/features/auth/components/email-verification-banner'
import { useAuth } from '@/features/auth/hooks/use-auth'

/**
 * The frame of the app pages: the header (for a signed-in user; the public header
 * otherwise, which only /subscription can show), the email-verification notice, the page.
 * @see spec §2 Header
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const { user, credits, logout } = useAuth()
  const [, navigate] = useLocation()

  const signOut = () => logout.mutate(undefined, { onSuccess: () => navigate('/auth') })

  return (
    <div className="flex flex-1 flex-col">
      {user ? (
        <Header user={user} credits={credits} onSignOut={signOut} isSigningOut={logout.isPending} />
      ) : (
        <PublicHeader />
      )}
      {user && !user.emailVerified ? <EmailVerificationBanner email={user.email} /> : null}
      <main className="flex flex-1 flex-col">{children}</main>
    </div>
  )
}
