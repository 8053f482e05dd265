import type { User } from '@reelgraph/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useMemo } from 'react'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { clearAllDeviceCopies } from '@/lib/device-copies'
import { clearAccountQueries } from '@/lib/query-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import * as authApi from '../api/auth-api'
import { AuthContext, type AuthContextValue } from '../auth-context'

/**
 * Reads the session and provides the auth context. Signing in or registering caches the
 * user; signing out clears the user and credits and invalidates projects and subscription
 * status.
 * @see spec §4 Auth, §7, §8 Auth toasts
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const userQuery = useQuery(authApi.userQueryOptions)
  const user = userQuery.data ?? null
  const creditsQuery = useQuery({ ...authApi.creditsQueryOptions, enabled: user !== null })

  const signedIn = (next: User) => {
    clearAccountQueries(queryClient)
    queryClient.setQueryData(QUERY_KEYS.user, next)
    queryClient.setQueryData(QUERY_KEYS.credits, { credits: next.credits })
  }

  const login = useMutation({
    mutationFn: authApi.login,
    onSuccess: (next) => {
      signedIn(next)
      toast({ title: 'Login successful', description: `Welcome back, ${next.name}!` })
    },
    onError: (error) => {
      toast({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' })
    },
  })

  const register = useMutation({
    mutationFn: authApi.register,
    onSuccess: (next) => {
      signedIn(next)
      toast({ title: 'Registration successful', description: `Welcome, ${next.name}!` })
    },
    onError: (error) => {
      toast({
        title: 'Registration failed',
        description: errorMessage(error),
        variant: 'destructive',
      })
    },
  })

  const logout = useMutation({
    mutationFn: authApi.logout,
    onSuccess: () => {
      // Clears credits and drops (so invalidates) projects and subscription status (spec §4).
      queryClient.setQueryData(QUERY_KEYS.user, null)
      clearAccountQueries(queryClient)
      // The next person on this device must not find this one's projects (issue 3).
      void clearAllDeviceCopies()
      toast({ title: 'Logged out', description: 'You have been successfully logged out.' })
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: errorMessage(error), variant: 'destructive' })
    },
  })

  const requestPasswordReset = useMutation({
    mutationFn: authApi.requestPasswordReset,
    onSuccess: () => {
      toast({
        title: 'Password reset email sent',
        description: 'If your email is registered, you will receive a password reset link.',
      })
    },
    onError: (error) => {
      toast({
        title: 'Password reset request failed',
        description: errorMessage(error),
        variant: 'destructive',
      })
    },
  })

  const credits = creditsQuery.data?.credits ?? null
  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      credits: user ? credits : null,
      isLoading: userQuery.isLoading,
      error: userQuery.error,
      login,
      logout,
      register,
      requestPasswordReset,
    }),
    [
      user,
      credits,
      userQuery.isLoading,
      userQuery.error,
      login,
      logout,
      register,
      requestPasswordReset,
    ],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
