import { AUTH_MESSAGES } from '@reelgraph/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { errorMessage } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import { verifyEmail } from '../api/auth-api'

interface Verifying {
  status: 'verifying'
}
interface Verified {
  status: 'verified'
}
interface Failed {
  status: 'failed'
  /** The server's message, or why no request was sent. */
  message: string
}

/** Where the verification of an emailed link stands. */
export type VerifyEmailState = Verifying | Verified | Failed

/**
 * POSTs the token to `/api/verify-email` once, on mount (a ref keeps React's development
 * double-mount from sending it twice: tokens are single use).
 */
export function useVerifyEmail(token: string | null): VerifyEmailState {
  const queryClient = useQueryClient()
  const sent = useRef(false)
  const { mutate, status, error } = useMutation({
    mutationFn: verifyEmail,
    // The user's `emailVerified` changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUERY_KEYS.user }),
  })

  useEffect(() => {
    if (!token || sent.current) return
    sent.current = true
    mutate({ token })
  }, [token, mutate])

  if (!token) return { status: 'failed', message: AUTH_MESSAGES.tokenRequired }
  if (status === 'success') return { status: 'verified' }
  if (status === 'error') return { status: 'failed', message: errorMessage(error) }
  return { status: 'verifying' }
}
