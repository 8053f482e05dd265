import { zodResolver } from '@hookform/resolvers/zod'
import { projectNameSchema } from '@reelgraph/shared'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api-client'
import { FailureNotice } from './failure-notice'

const nameForm = z.object({ name: projectNameSchema })
type NameFormInput = z.input<typeof nameForm>
type NameFormOutput = z.output<typeof nameForm>

/** Props of {@link ProjectNameDialog}. */
export interface ProjectNameDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** "New project", "Rename project". */
  title: string
  /** One line under the title. */
  description: string
  /** The name the field starts with. */
  initialName: string
  /** The submit button's label ("Create project") and its busy label ("Creating..."). */
  submitLabel: string
  busyLabel: string
  /**
   * Saves the trimmed name. Resolves when done (the dialog then closes); throws on failure,
   * and the dialog logs the error and shows `failureMessage` (spec §8: on the projects page
   * failures are only logged, no toast).
   */
  onSubmit: (name: string) => Promise<void>
  /** What the dialog says when `onSubmit` fails ("Failed to create project. Please try again."). */
  failureMessage: string
  /** Where focus goes when the dialog closes (the button that opened it, say). */
  onCloseAutoFocus?: (event: Event) => void
}

/**
 * A dialog with one "Name" field, for creating and renaming a project. The submit button
 * stays disabled while the trimmed name is empty and reads `busyLabel` while saving; the
 * dialog cannot be dismissed while a save is on its way.
 * @see spec §5 Projects
 */
export function ProjectNameDialog({ open, onOpenChange, ...props }: ProjectNameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open, so every opening starts from a fresh form. */}
      {open ? <ProjectNameDialogContent {...props} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  )
}

function ProjectNameDialogContent({
  title,
  description,
  initialName,
  submitLabel,
  busyLabel,
  onSubmit,
  failureMessage,
  onCloseAutoFocus,
  onDone,
}: Omit<ProjectNameDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ detail: string } | null>(null)
  const form = useForm<NameFormInput, unknown, NameFormOutput>({
    resolver: zodResolver(nameForm),
    defaultValues: { name: initialName },
    mode: 'onChange',
  })
  const name = useWatch({ control: form.control, name: 'name' })
  const nameError = form.formState.errors.name?.message
  const empty = name.trim() === ''

  const submit = form.handleSubmit(async ({ name: trimmed }) => {
    setBusy(true)
    setFailure(null)
    try {
      await onSubmit(trimmed)
      onDone()
    } catch (error) {
      console.error(failureMessage, error)
      const fieldMessage = error instanceof ApiError ? error.fields?.name : undefined
      if (fieldMessage) form.setError('name', { type: 'server', message: fieldMessage })
      else setFailure({ detail: errorMessage(error) })
      setBusy(false)
    }
  })

  const blockWhileBusy = (event: Event) => {
    if (busy) event.preventDefault()
  }

  return (
    <DialogContent
      showCloseButton={!busy}
      onEscapeKeyDown={blockWhileBusy}
      onInteractOutside={blockWhileBusy}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4" aria-busy={busy || undefined}>
        {/* Empty is said by the disabled button; other problems (too long) by the field. */}
        <FormField label="Name" error={empty ? undefined : nameError}>
          <Input
            autoComplete="off"
            autoFocus
            onFocus={(event) => event.currentTarget.select()}
            readOnly={busy}
            {...form.register('name')}
          />
        </FormField>
        {failure ? <FailureNotice message={failureMessage} detail={failure.detail} /> : null}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={busy} onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || empty || !!nameError}>
            {busy ? <Spinner /> : null}
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}
