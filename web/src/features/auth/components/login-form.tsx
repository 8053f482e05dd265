import { zodResolver } from '@hookform/resolvers/zod'
import { type LoginInput, loginInput } from '@reelgraph/shared'
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { useAuth } from '../hooks/use-auth'
import { applyServerFieldErrors } from './server-errors'
import { EmailInput } from './email-input'

/** Props of {@link LoginForm}. */
export interface LoginFormProps {
  /** Opens the password-reset request view. */
  onForgotPassword: (email: string) => void
  /** An email to start with (the one a reset was just requested for, say). */
  defaultEmail?: string
  /** Where success leads (a safe same-site path); / by default. */
  redirectTo?: string
}

/**
 * Email, password, "Remember me" (not connected to any call, spec §2) and "Sign in"
 * ("Signing in..." while pending). Success goes to `redirectTo` (/ by default).
 * @see spec §2 /auth, §5 Login, §8 Auth toasts
 */
export function LoginForm({
  onForgotPassword,
  defaultEmail = '',
  redirectTo = '/',
}: LoginFormProps) {
  const { login } = useAuth()
  const [, navigate] = useLocation()
  const rememberId = useId()
  const form = useForm({
    resolver: zodResolver(loginInput),
    defaultValues: { email: defaultEmail, password: '' },
  })
  const { errors } = form.formState

  const onSubmit = (values: LoginInput) =>
    login.mutate(values, {
      onSuccess: () => navigate(redirectTo),
      onError: (error) => {
        applyServerFieldErrors(error, form.setError, ['email', 'password'])
      },
    })

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
      <FormField label="Email" error={errors.email?.message}>
        <EmailInput {...form.register('email')} />
      </FormField>
      <FormField
        label="Password"
        error={errors.password?.message}
        labelAside={
          <Button
            type="button"
            variant="link"
            size="sm"
            className="font-normal text-sm"
            onClick={() => onForgotPassword(form.getValues('email'))}
          >
            Forgot password?
          </Button>
        }
      >
        <Input type="password" autoComplete="current-password" {...form.register('password')} />
      </FormField>
      <div className="flex items-center gap-2">
        <Checkbox id={rememberId} name="remember" />
        <Label htmlFor={rememberId} className="font-normal">
          Remember me
        </Label>
      </div>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? <Spinner /> : null}
        {login.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  )
}
