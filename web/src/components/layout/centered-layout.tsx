import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { Logo } from './logo'

/**
 * A page with only the logo and one centered column: for pages reached from an email link
 * (reset password, verify email) and other single-purpose screens.
 */
export function CenteredLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-1 flex-col px-4 py-8 sm:px-8">
      <Logo className="self-start" />
      <main className="flex flex-1 items-center justify-center py-8">
        <div className="w-full max-w-md">{children}</div>
      </main>
      <footer className="flex justify-center gap-4 text-muted-foreground text-xs">
        <Link href="/terms" className="hover:text-foreground hover:underline">
          Terms of Service
        </Link>
        <Link href="/privacy" className="hover:text-foreground hover:underline">
          Privacy Policy
        </Link>
      </footer>
    </div>
  )
}
