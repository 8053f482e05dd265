import type { Credits, User } from '@reelgraph/shared'
import { useQuery } from '@tanstack/react-query'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The signed-in user and the credit balance as the auth provider keeps them, read from
 * the shared cache (never fetched from here: the provider owns those queries). Account-level
 * data, read by billing's pages and the canvas's Script Generator alike.
 */
export function useAccountSnapshot(): { user: User | null; credits: number | null } {
  const user = useQuery<User | null>({ queryKey: QUERY_KEYS.user, enabled: false }).data ?? null
  const credits = useQuery<Credits | null>({ queryKey: QUERY_KEYS.credits, enabled: false }).data
  return { user, credits: user ? (credits?.credits ?? user.credits) : null }
}
