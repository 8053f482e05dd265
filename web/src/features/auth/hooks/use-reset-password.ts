import type { Ok, ResetPasswordInput } from '@reelgraph/shared'
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query'
import { QUERY_KEYS } from '@/lib/query-keys'
import { resetPassword } from '../api/auth-api'

/**
 * Sets a new password with the emailed token. The server may end existing sessions, so
 * the session is read again afterwards.
 */
export function useResetPassword(): UseMutationResult<Ok, Error, ResetPasswordInput> {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUERY_KEYS.user }),
  })
}
