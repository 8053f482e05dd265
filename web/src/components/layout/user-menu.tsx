import { type User, WEB_PATHS } from '@reelgraph/shared'
import { CoinsIcon, CreditCardIcon, FolderOpenIcon, KeyRoundIcon, LogOutIcon } from 'lucide-react'
import { useLocation } from 'wouter'
import { Avatar, AvatarFallback } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { initialsOf } from '@/lib/utils'

/** Props of {@link UserMenu}. */
export interface UserMenuProps {
  user: Pick<User, 'name' | 'email' | 'subscriptionStatus'>
  credits: number | null
  onSignOut: () => void
  isSigningOut?: boolean
}

/**
 * The avatar menu: initials (or "U"), name (or "User"), email, a disabled "Available
 * Credits" entry, My Projects, Subscription (with "Active" when not free), API tokens
 * (issue 41 item 1) and Sign out.
 * @see spec §2 Header
 */
export function UserMenu({ user, credits, onSignOut, isSigningOut = false }: UserMenuProps) {
  const [, navigate] = useLocation()
  const name = user.name.trim() || 'User'
  const active = user.subscriptionStatus !== 'free'
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="rounded-full"
          aria-label={`Account menu, ${initialsOf(user.name)}`}
        >
          <Avatar>
            <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
          </Avatar>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-0.5">
            <span className="truncate font-medium text-sm">{name}</span>
            <span className="truncate text-muted-foreground text-xs">{user.email}</span>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled>
          <CoinsIcon aria-hidden />
          Available Credits
          <span className="ml-auto font-medium tabular-nums">
            {credits === null ? '...' : credits.toLocaleString('en-US')}
          </span>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem onSelect={() => navigate('/projects')}>
            <FolderOpenIcon aria-hidden />
            My Projects
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate('/subscription')}>
            <CreditCardIcon aria-hidden />
            Subscription
            {active ? (
              <Badge variant="success" className="ml-auto">
                Active
              </Badge>
            ) : null}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate(WEB_PATHS.apiTokens)}>
            <KeyRoundIcon aria-hidden />
            API tokens
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" disabled={isSigningOut} onSelect={onSignOut}>
          <LogOutIcon aria-hidden />
          {isSigningOut ? 'Signing out...' : 'Sign out'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
