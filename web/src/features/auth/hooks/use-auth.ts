import { useContext } from 'react'
import { AuthContext, type AuthContextValue } from '../auth-context'

/**
 * The signed-in user, credits and auth actions.
 * @throws {Error} when used outside `<AuthProvider>`.
 * @see spec §3 User ("The auth context")
 */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext)
  if (!value) throw new Error('useAuth must be used within <AuthProvider>')
  return value
}
