import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Redirect } from 'wouter'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { errorMessage } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import { useAuth } from '../hooks/use-auth'

/**
 * Renders its children only for a signed-in user: "Loading your account..." while the
 * session loads, a redirect to /auth when there is no user. If the session could not be
 * read at all (server down), says so and offers a retry instead of pretending the person
 * is signed out.
 * @see spec §2 Screens and routes, §6
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, isLoading, error } = useAuth()
  const queryClient = useQueryClient()
  if (isLoading) return <PageLoader label="Loading your account..." />
  if (!user && error) {
    return (
      <div className="flex flex-1 items-center justify-center p-4">
        <Card className="w-full max-w-md" role="alert">
          <CardHeader>
            <CardTitle as="h1">We couldn't load your account</CardTitle>
            <CardDescription>{errorMessage(error)}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button onClick={() => queryClient.refetchQueries({ queryKey: QUERY_KEYS.user })}>
              Try again
            </Button>
          </CardContent>
        </Card>
      </div>
    )
  }
  if (!user) return <Redirect to="/auth" replace />
  return children
}
