import type { Ok } from '@reelgraph/shared'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { resendVerification } from '../api/auth-api'

/** Emails the signed-in user a new verification link, with a toast either way. */
export function useResendVerification(): UseMutationResult<Ok, Error, void> {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: (answer) => {
      toast({
        title: 'Verification email sent',
        description: answer.message ?? 'Check your inbox for a link to verify your email address.',
      })
    },
    onError: (error) => {
      toast({
        title: 'Could not send verification email',
        description: errorMessage(error),
        variant: 'destructive',
      })
    },
  })
}
