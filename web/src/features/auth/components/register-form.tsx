import { zodResolver } from '@hookform/resolvers/zod'
import {
  PASSWORD_HINT,
  type RegisterForm as RegisterFormValues,
  registerForm,
} from '@reelgraph/shared'
import { useId } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { ApiError } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { useAuth } from '../hooks/use-auth'
import { applyServerFieldErrors } from './server-errors'
import { EmailInput } from './email-input'

const LINK_CLASS = 'text-primary underline underline-offset-4 hover:text-primary/80'

/**
 * Name, email, password (with the password hint), confirmation and the terms agreement;
 * "Create account" ("Creating account..." while pending). Only name, email and password
 * are sent. Success goes to `redirectTo` (/ by default); `defaultEmail` prefills the address.
 * @see spec §2 /auth, §5 Register, §8 Auth toasts
 */
export function RegisterForm({
  defaultEmail = '',
  redirectTo = '/',
}: {
  defaultEmail?: string
  redirectTo?: string
} = {}) {
  const { register: registerAccount } = useAuth()
  const [, navigate] = useLocation()
  const termsId = useId()
  const termsErrorId = `${termsId}-error`
  const form = useForm({
    resolver: zodResolver(registerForm),
    defaultValues: {
      name: '',
      email: defaultEmail,
      password: '',
      confirmPassword: '',
      termsAgreed: false,
    },
  })
  const { errors } = form.formState

  const onSubmit = ({ name, email, password }: RegisterFormValues) =>
    registerAccount.mutate(
      { name, email, password },
      {
        onSuccess: () => navigate(redirectTo),
        onError: (error) => {
          applyServerFieldErrors(error, form.setError, ['name', 'email', 'password'], {
            EMAIL_TAKEN: 'email',
            WEAK_PASSWORD: 'password',
          })
          // spec §8: the page follows the hook's "Registration failed" with its own toast.
          toast({
            title: 'Registration Error',
            description:
              error instanceof ApiError ? error.serverMessage : 'Failed to create account',
            variant: 'destructive',
          })
        },
      },
    )

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
      <FormField label="Name" error={errors.name?.message}>
        <Input autoComplete="name" placeholder="Ada Lovelace" {...form.register('name')} />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <EmailInput {...form.register('email')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message} description={PASSWORD_HINT}>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <div className="grid gap-2">
        <div className="flex items-start gap-2">
          <Controller
            control={form.control}
            name="termsAgreed"
            render={({ field }) => (
              <Checkbox
                id={termsId}
                ref={field.ref}
                name={field.name}
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                aria-invalid={errors.termsAgreed ? true : undefined}
                aria-describedby={errors.termsAgreed ? termsErrorId : undefined}
                className="mt-0.5"
              />
            )}
          />
          <Label
            htmlFor={termsId}
            className={cn(
              'block font-normal leading-snug',
              errors.termsAgreed && 'text-destructive',
            )}
          >
            I agree to the {/* Plain links in a new tab, so the half-filled form stays put. */}
            <a href="/terms" target="_blank" rel="noopener" className={LINK_CLASS}>
              Terms of Service
            </a>{' '}
            and{' '}
            <a href="/privacy" target="_blank" rel="noopener" className={LINK_CLASS}>
              Privacy Policy
            </a>
          </Label>
        </div>
        {errors.termsAgreed ? (
          <p id={termsErrorId} className="font-medium text-destructive text-sm">
            {errors.termsAgreed.message}
          </p>
        ) : null}
      </div>
      <p className="text-muted-foreground text-xs">
        We'll email you a link to verify your email address.
      </p>
      <Button type="submit" className="w-full" disabled={registerAccount.isPending}>
        {registerAccount.isPending ? <Spinner /> : null}
        {registerAccount.isPending ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  )
}
