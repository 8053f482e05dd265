import { zodResolver } from '@hookform/resolvers/zod'
import { projectNameSchema } from '@reelgraph/shared'
import { type ReactNode, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { Button } from './button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './dialog'
import { FormField } from './form-field'
import { Input } from './input'
import { Spinner } from './spinner'

const nameForm = z.object({ name: projectNameSchema })
type NameFormInput = z.input<typeof nameForm>
type NameFormOutput = z.output<typeof nameForm>

/** What a {@link NameDialog} shows after a failed save. */
export interface NameDialogFailure {
  /** The server's word on the name, shown under the field. */
  field?: string | undefined
  /** A notice under the field (an inline failure message, say). */
  notice?: ReactNode
}

/** Props of {@link NameDialog}. */
export interface NameDialogProps {
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
  /** Saves the trimmed name. Resolves when done (the dialog then closes); throws on failure. */
  onSubmit: (name: string) => Promise<void>
  /**
   * Told what `onSubmit` threw; the dialog stays open and shows what this returns (nothing
   * when the caller says it elsewhere, in a toast say).
   */
  onFailure: (error: unknown) => NameDialogFailure | undefined
  /** Where focus goes when the dialog closes (the button that opened it, say). */
  onCloseAutoFocus?: (event: Event) => void
}

/**
 * A dialog with one "Name" field (a project name, spec §5), for creating and renaming. The
 * submit button stays disabled while the trimmed name is empty and reads `busyLabel` while
 * saving; the dialog cannot be dismissed while a save is on its way.
 * @see spec §5 Projects
 */
export function NameDialog({ open, onOpenChange, ...props }: NameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open, so every opening starts from a fresh form. */}
      {open ? <NameDialogContent {...props} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  )
}

function NameDialogContent({
  title,
  description,
  initialName,
  submitLabel,
  busyLabel,
  onSubmit,
  onFailure,
  onCloseAutoFocus,
  onDone,
}: Omit<NameDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<ReactNode>(null)
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
    setNotice(null)
    try {
      await onSubmit(trimmed)
      onDone()
    } catch (error) {
      const failure = onFailure(error)
      if (failure?.field) form.setError('name', { type: 'server', message: failure.field })
      else setNotice(failure?.notice ?? null)
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
        {notice}
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
