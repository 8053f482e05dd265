import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Logo } from './logo'

/** The header for people who are not signed in: the logo and a way to sign in. */
export function PublicHeader() {
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex h-14 max-w-screen-2xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <Button asChild size="sm">
          <Link href="/auth">Sign in</Link>
        </Button>
      </div>
    </header>
  )
}
