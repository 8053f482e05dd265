import { INITIAL_CREDITS } from '@reelgraph/shared'
import { useState } from 'react'
import { Redirect, useSearchParams } from 'wouter'
import { Logo } from '@/components/layout/logo'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { safeNextPath } from '@/lib/next-path'
import { useAuth } from '../hooks/use-auth'
import { AuthSidePanel } from './auth-side-panel'
import { LoginForm } from './login-form'
import { RegisterForm } from './register-form'
import { ResetRequestForm } from './reset-request-form'

/** The sign-in page's views (spec §4 "Sign-in page views"). */
export type AuthView = 'login' | 'register' | 'reset-password'

const HEADINGS: Record<AuthView, { title: string; description: string }> = {
  login: {
    title: 'Sign in to your account',
    description: 'Welcome back. Enter your email and password to continue.',
  },
  register: {
    title: 'Create a new account',
    description: `Start with ${INITIAL_CREDITS} free credits. No card needed.`,
  },
  'reset-password': {
    title: 'Reset your password',
    description: "Enter your account's email and we'll send you a link to set a new password.",
  },
}

function initialView(param: string | null): AuthView {
  return param === 'register' || param === 'reset-password' ? param : 'login'
}

/**
 * /auth: Login and Register tabs with toggle links, the password-reset request view, and a
 * side panel on wide screens. A signed-in user is sent to / and sees nothing here.
 * `?view=register` or `?view=reset-password` opens that view first. `?next=<path>` (a
 * same-site path only, `safeNextPath`) is where signing in or registering leads instead of
 * /, and `?email=` prefills the address (an invitation link, issue 6 item 1).
 * @see spec §2 /auth, §4 Sign-in page views
 */
export function AuthPage() {
  const { user, isLoading } = useAuth()
  const [params] = useSearchParams()
  const [view, setView] = useState<AuthView>(() => initialView(params.get('view')))
  const [email, setEmail] = useState(() => params.get('email') ?? '')
  const [next] = useState(() => safeNextPath(params.get('next')) ?? '/')
  const heading = HEADINGS[view]
  useDocumentTitle(view === 'register' ? 'Create account' : 'Sign in')

  if (user) return <Redirect to={next} replace />
  if (isLoading) return <PageLoader label="Loading your account..." />

  const toggle =
    view === 'login' ? (
      <p className="text-center text-muted-foreground text-sm">
        Don't have an account?{' '}
        <Button variant="link" className="h-auto p-0" onClick={() => setView('register')}>
          Create one
        </Button>
      </p>
    ) : view === 'register' ? (
      <p className="text-center text-muted-foreground text-sm">
        Already have an account?{' '}
        <Button variant="link" className="h-auto p-0" onClick={() => setView('login')}>
          Sign in instead
        </Button>
      </p>
    ) : null

  return (
    <div className="grid min-h-dvh flex-1 lg:grid-cols-2">
      <main className="flex flex-col px-4 py-8 sm:px-8">
        <Logo className="self-start" />
        <div className="flex flex-1 items-center justify-center py-8">
          <div className="flex w-full max-w-sm flex-col gap-6">
            <div className="flex flex-col gap-1.5 text-center">
              <h1 className="font-semibold text-2xl tracking-tight">{heading.title}</h1>
              <p className="text-muted-foreground text-sm">{heading.description}</p>
            </div>
            {view === 'reset-password' ? (
              <ResetRequestForm
                defaultEmail={email}
                onSent={(sentTo) => {
                  setEmail(sentTo)
                  setView('login')
                }}
                onBack={() => setView('login')}
              />
            ) : (
              <Tabs value={view} onValueChange={(next) => setView(initialView(next))}>
                <TabsList>
                  <TabsTrigger value="login">Login</TabsTrigger>
                  <TabsTrigger value="register">Register</TabsTrigger>
                </TabsList>
                <TabsContent value="login">
                  <LoginForm
                    defaultEmail={email}
                    redirectTo={next}
                    onForgotPassword={(typed) => {
                      setEmail(typed)
                      setView('reset-password')
                    }}
                  />
                </TabsContent>
                <TabsContent value="register">
                  <RegisterForm defaultEmail={email} redirectTo={next} />
                </TabsContent>
              </Tabs>
            )}
            {toggle}
          </div>
        </div>
      </main>
      <div className="hidden lg:flex lg:flex-col">
        <AuthSidePanel />
      </div>
    </div>
  )
}
