import { zodResolver } from '@hookform/resolvers/zod'
import {
  AUTH_MESSAGES,
  PASSWORD_HINT,
  type ResetPasswordForm,
  resetPasswordForm,
} from '@reelgraph/shared'
import { KeyRoundIcon, TriangleAlertIcon } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useLocation, useSearchParams } from 'wouter'
import { CenteredLayout } from '@/components/layout/centered-layout'
import { Button } from '@/components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { errorMessage, isApiError } from '@/lib/api-client'
import { useResetPassword } from '../hooks/use-reset-password'
import { applyServerFieldErrors } from './server-errors'

/** Explains a reset link that cannot be used, with a way to get a new one. */
function InvalidLink({ message }: { message: string }) {
  return (
    <Card role="alert">
      <CardHeader>
        <TriangleAlertIcon className="mb-2 size-8 text-destructive" aria-hidden />
        <CardTitle as="h1">This reset link can't be used</CardTitle>
        <CardDescription>{message}</CardDescription>
      </CardHeader>
      <CardContent className="text-muted-foreground text-sm">
        Reset links work once and expire after a while. Ask for a new one and use the link in the
        newest email.
      </CardContent>
      <CardFooter className="flex-wrap">
        <Button asChild>
          <Link href="/auth?view=reset-password">Request a new link</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/auth">Back to sign in</Link>
        </Button>
      </CardFooter>
    </Card>
  )
}

/**
 * /reset-password?token=...: sets a new password ("New password", "Confirm new password",
 * "Set new password"), then toasts and goes to /auth to sign in. A missing, used or expired
 * token gets a clear error view.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Set a new password')
  const [params] = useSearchParams()
  const token = params.get('token')?.trim() || null
  const [, navigate] = useLocation()
  const resetPassword = useResetPassword()
  const [invalidMessage, setInvalidMessage] = useState<string | null>(null)
  const form = useForm({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  })
  const { errors } = form.formState

  if (!token) {
    return (
      <CenteredLayout>
        <InvalidLink message={AUTH_MESSAGES.tokenRequired} />
      </CenteredLayout>
    )
  }
  if (invalidMessage) {
    return (
      <CenteredLayout>
        <InvalidLink message={invalidMessage} />
      </CenteredLayout>
    )
  }

  const onSubmit = ({ password }: ResetPasswordForm) =>
    resetPassword.mutate(
      { token, password },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Password updated',
            description: answer.message ?? 'Sign in with your new password.',
          })
          navigate('/auth', { replace: true })
        },
        onError: (error) => {
          if (isApiError(error, 400, 'INVALID_TOKEN') || isApiError(error, 404)) {
            setInvalidMessage(errorMessage(error))
            return
          }
          const placed = applyServerFieldErrors(error, form.setError, ['password'], {
            WEAK_PASSWORD: 'password',
          })
          if (!placed) {
            toast({
              title: 'Password reset failed',
              description: errorMessage(error),
              variant: 'destructive',
            })
          }
        },
      },
    )

  return (
    <CenteredLayout>
      <Card>
        <CardHeader>
          <KeyRoundIcon className="mb-2 size-8 text-primary" aria-hidden />
          <CardTitle as="h1">Set a new password</CardTitle>
          <CardDescription>Choose a new password for your Reelgraph account.</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
            <FormField
              label="New password"
              error={errors.password?.message}
              description={PASSWORD_HINT}
            >
              <Input
                type="password"
                autoComplete="new-password"
                autoFocus
                {...form.register('password')}
              />
            </FormField>
            <FormField label="Confirm new password" error={errors.confirmPassword?.message}>
              <Input
                type="password"
                autoComplete="new-password"
                {...form.register('confirmPassword')}
              />
            </FormField>
            <Button type="submit" className="w-full" disabled={resetPassword.isPending}>
              {resetPassword.isPending ? <Spinner /> : null}
              {resetPassword.isPending ? 'Saving...' : 'Set new password'}
            </Button>
          </form>
        </CardContent>
        <CardFooter className="justify-center">
          <Button asChild variant="link">
            <Link href="/auth">Back to sign in</Link>
          </Button>
        </CardFooter>
      </Card>
    </CenteredLayout>
  )
}
