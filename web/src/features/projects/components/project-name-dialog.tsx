import { NameDialog, type NameDialogProps } from '@/components/ui/name-dialog'
import { ApiError, errorMessage } from '@/lib/api-client'
import { FailureNotice } from './failure-notice'

/** Props of {@link ProjectNameDialog}. */
export interface ProjectNameDialogProps extends Omit<NameDialogProps, 'onFailure'> {
  /** What the dialog says when `onSubmit` fails ("Failed to create project. Please try again."). */
  failureMessage: string
}

/**
 * The /projects dialog for creating and renaming a project: a failed save is logged and
 * said in the dialog, not toasted (spec §8 Projects), a server message about the name under
 * the field.
 * @see spec §5 Projects
 */
export function ProjectNameDialog({ failureMessage, ...props }: ProjectNameDialogProps) {
  return (
    <NameDialog
      {...props}
      onFailure={(error) => {
        console.error(failureMessage, error)
        const field = error instanceof ApiError ? error.fields?.name : undefined
        if (field) return { field }
        return { notice: <FailureNotice message={failureMessage} detail={errorMessage(error)} /> }
      }}
    />
  )
}
