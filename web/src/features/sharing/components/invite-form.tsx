import { zodResolver } from '@hookform/resolvers/zod'
import { type InviteMemberInput, inviteMemberInput, type MemberRole } from '@reelgraph/shared'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useInviteMember } from '../api/members-api'
import { RoleSelect } from './role-select'

/**
 * The owner's invite form in the Share dialog (issue 6 item 1): "Email address", "Role"
 * (Can edit / Can view) and "Send invite" ("Sending..." while pending). Field errors show
 * under their field (an existing member's address under the email); other failures show
 * the API's message above the button. Success toasts "Invitation sent" naming the address
 * and clears the email, focused for the next address.
 */
export function InviteForm({ projectId }: { projectId: number }) {
  const invite = useInviteMember()
  const form = useForm<InviteMemberInput>({
    resolver: zodResolver(inviteMemberInput),
    defaultValues: { email: '', role: 'editor' },
  })
  const { errors } = form.formState
  // The select is not a native control: its value lives here and goes to the form on change.
  const [role, setRole] = useState<MemberRole>('editor')

  const onSubmit = (values: InviteMemberInput) =>
    invite.mutate(
      { projectId, ...values },
      {
        onSuccess: (invitation) => {
          toast({
            title: 'Invitation sent',
            description: `We emailed an invitation to ${invitation.email}.`,
          })
          form.reset({ email: '', role: values.role })
          // Ready for the next address (and focus stays in the dialog).
          form.setFocus('email')
        },
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fields : undefined
          const emailError =
            fields?.email ??
            (error instanceof ApiError && error.code === 'ALREADY_MEMBER'
              ? error.serverMessage
              : undefined)
          if (emailError) form.setError('email', { message: emailError }, { shouldFocus: true })
          if (fields?.role) form.setError('role', { message: fields.role })
          if (!emailError && !fields?.role) form.setError('root', { message: errorMessage(error) })
        },
      },
    )

  return (
    <form
      noValidate
      aria-label="Invite people"
      onSubmit={form.handleSubmit(onSubmit)}
      className="grid gap-3"
    >
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <FormField label="Email address" error={errors.email?.message}>
          <Input
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            {...form.register('email')}
          />
        </FormField>
        <FormField label="Role" error={errors.role?.message}>
          <RoleSelect
            value={role}
            onValueChange={(next) => {
              setRole(next)
              form.setValue('role', next, { shouldValidate: form.formState.isSubmitted })
            }}
            className="w-32"
          />
        </FormField>
      </div>
      {errors.root?.message ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {errors.root.message}
        </p>
      ) : null}
      <Button type="submit" className="justify-self-end" disabled={invite.isPending}>
        {invite.isPending ? <Spinner /> : null}
        {invite.isPending ? 'Sending...' : 'Send invite'}
      </Button>
    </form>
  )
}
