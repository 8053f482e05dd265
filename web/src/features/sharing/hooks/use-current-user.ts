import type { User } from '@reelgraph/shared'
import { useQuery } from '@tanstack/react-query'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The signed-in user, read from the session query the auth provider keeps (never fetched
 * here); null when none.
 */
export function useCurrentUser(): User | null {
  return useQuery<User | null>({ queryKey: QUERY_KEYS.user, enabled: false }).data ?? null
}
