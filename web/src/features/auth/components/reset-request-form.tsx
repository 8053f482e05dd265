import { zodResolver } from '@hookform/resolvers/zod'
import { type PasswordResetRequestInput, passwordResetRequestInput } from '@reelgraph/shared'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { useAuth } from '../hooks/use-auth'
import { applyServerFieldErrors } from './server-errors'
import { EmailInput } from './email-input'

/** Props of {@link ResetRequestForm}. */
export interface ResetRequestFormProps {
  defaultEmail?: string
  /** Called after the request was sent (the page returns to the login view, spec §4). */
  onSent: (email: string) => void
  /** "Back to login". */
  onBack: () => void
}

/**
 * Asks for a password-reset email: "Send reset link" ("Sending..." while pending).
 * @see spec §2 /auth, §5 Password reset, §8 Auth toasts
 */
export function ResetRequestForm({ defaultEmail = '', onSent, onBack }: ResetRequestFormProps) {
  const { requestPasswordReset } = useAuth()
  const form = useForm({
    resolver: zodResolver(passwordResetRequestInput),
    defaultValues: { email: defaultEmail },
  })
  const { errors } = form.formState

  const onSubmit = (values: PasswordResetRequestInput) =>
    requestPasswordReset.mutate(values, {
      onSuccess: () => onSent(values.email),
      onError: (error) => {
        applyServerFieldErrors(error, form.setError, ['email'])
      },
    })

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
      <FormField label="Email" error={errors.email?.message}>
        <EmailInput autoFocus {...form.register('email')} />
      </FormField>
      <Button type="submit" className="w-full" disabled={requestPasswordReset.isPending}>
        {requestPasswordReset.isPending ? <Spinner /> : null}
        {requestPasswordReset.isPending ? 'Sending...' : 'Send reset link'}
      </Button>
      <Button type="button" variant="link" className="justify-self-center" onClick={onBack}>
        Back to login
      </Button>
    </form>
  )
}
