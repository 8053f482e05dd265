import type { User } from '@reelgraph/shared'
import { Link, useLocation } from 'wouter'
import { cn } from '@/lib/utils'
import { useSaveStatus } from '@/stores/save-status'
import { CreditsPill } from './credits-pill'
import { Logo } from './logo'
import { SaveStatusPill } from './save-status-pill'
import { UserMenu } from './user-menu'

const TABS = [
  { href: '/', label: 'Dashboard' },
  { href: '/projects', label: 'Projects' },
  { href: '/subscription', label: 'Subscription' },
] as const

/** Props of {@link Header}. */
export interface HeaderProps {
  user: Pick<User, 'name' | 'email' | 'subscriptionStatus'>
  credits: number | null
  onSignOut: () => void
  isSigningOut?: boolean
}

function isActive(href: string, location: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`)
}

/**
 * The app header: logo, the Dashboard / Projects / Subscription tabs, the save-status and
 * credits pills and the avatar menu. On narrow screens the tabs move to a second row.
 * @see spec §2 Header
 */
export function Header({ user, credits, onSignOut, isSigningOut }: HeaderProps) {
  const [location] = useLocation()
  const saveStatus = useSaveStatus()
  const nav = (
    <nav aria-label="Main" className="flex items-center gap-1">
      {TABS.map((tab) => {
        const active = isActive(tab.href, location)
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'rounded-md px-3 py-1.5 font-medium text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50',
              active
                ? 'bg-accent text-accent-foreground'
                : 'text-muted-foreground hover:bg-muted hover:text-foreground',
            )}
          >
            {tab.label}
          </Link>
        )
      })}
    </nav>
  )
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-14 max-w-screen-2xl items-center gap-4 px-4 sm:px-6">
        <Logo compact />
        <div className="hidden md:block">{nav}</div>
        <div className="ml-auto flex items-center gap-2">
          <SaveStatusPill status={saveStatus} />
          <CreditsPill credits={credits} />
          <UserMenu
            user={user}
            credits={credits}
            onSignOut={onSignOut}
            isSigningOut={isSigningOut}
          />
        </div>
      </div>
      <div className="overflow-x-auto border-t px-2 py-1.5 md:hidden">{nav}</div>
    </header>
  )
}
