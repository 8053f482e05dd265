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

  // Replace, not push: Back should not return to a page that now only redirects to /auth.
  const signOut = () =>
    logout.mutate(undefined, { onSuccess: () => navigate('/auth', { replace: true }) })

  return (
    // One screen high: the page scrolls inside <main>, so the header and banner never push
    // the canvas's toolbar and minimap below the fold (issue 14 item 4).
    <div className="flex h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow-md focus:ring-[3px] focus:ring-ring/50"
      >
        Skip to content
      </a>
      {user ? (
        <Header user={user} credits={credits} onSignOut={signOut} isSigningOut={logout.isPending} />
      ) : (
        <PublicHeader />
      )}
      {user && !user.emailVerified ? <EmailVerificationBanner email={user.email} /> : null}
      <main
        id="main"
        tabIndex={-1}
        className="flex min-h-0 flex-1 flex-col overflow-y-auto outline-none"
      >
        {children}
      </main>
    </div>
  )
}
