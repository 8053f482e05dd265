import type {
  LoginInput,
  Ok,
  PasswordResetRequestInput,
  RegisterInput,
  User,
} from '@reelgraph/shared'
import type { UseMutationResult } from '@tanstack/react-query'
import { createContext } from 'react'

/**
 * What the auth context exposes (spec §3 "The auth context"): the user, the credits (or
 * null), a loading flag, an error, and the login, logout, register and password-reset
 * actions. Each action is a TanStack mutation, so callers get `mutate`, `mutateAsync` and
 * `isPending`; the success and failure toasts of spec §8 are already attached.
 */
export interface AuthContextValue {
  /** The signed-in user, or null when anonymous (or still loading). */
  user: User | null
  /** The latest credit balance, or null while unknown. */
  credits: number | null
  /** True while the session is first being read. */
  isLoading: boolean
  /** Why the session could not be read (not set for "not signed in"). */
  error: Error | null
  login: UseMutationResult<User, Error, LoginInput>
  logout: UseMutationResult<Ok, Error, void>
  register: UseMutationResult<User, Error, RegisterInput>
  requestPasswordReset: UseMutationResult<Ok, Error, PasswordResetRequestInput>
}

/** The auth context; read it with `useAuth()`. */
export const AuthContext = createContext<AuthContextValue | null>(null)
