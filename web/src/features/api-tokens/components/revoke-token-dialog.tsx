import type { ApiToken } from '@reelgraph/shared'
import { useState } from 'react'
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { ConfirmFooter } from '@/components/ui/confirm-footer'
import { errorMessage } from '@/lib/api-client'
import { useRevokeApiToken } from '../api/tokens-api'

/** Props of {@link RevokeTokenDialog}. */
export interface RevokeTokenDialogProps {
  /** The token to revoke; null: closed. */
  token: ApiToken | null
  onClose: () => void
}

/**
 * "Revoke <name>?" (issue 41 item 1): programs using the token stop working at once. The
 * dialog stays open while the call runs and shows the server's words if it fails.
 */
export function RevokeTokenDialog({ token, onClose }: RevokeTokenDialogProps) {
  const revoke = useRevokeApiToken()
  const [failure, setFailure] = useState<string | null>(null)

  async function confirm() {
    if (!token) return
    setFailure(null)
    try {
      await revoke.mutateAsync({ id: token.id })
      onClose()
    } catch (error) {
      setFailure(errorMessage(error, 'The token could not be revoked. Please try again.'))
    }
  }

  return (
    <AlertDialog
      open={token !== null}
      onOpenChange={(open) => {
        if (!open && !revoke.isPending) {
          setFailure(null)
          onClose()
        }
      }}
    >
      {token ? (
        <AlertDialogContent aria-busy={revoke.isPending || undefined}>
          <AlertDialogHeader>
            <AlertDialogTitle>Revoke “{token.name}”?</AlertDialogTitle>
            <AlertDialogDescription>
              Programs and agents using this token stop working at once: their next request is
              refused. This can’t be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {failure !== null ? (
            <p role="alert" className="font-medium text-destructive text-sm">
              {failure}
            </p>
          ) : null}
          <ConfirmFooter
            busy={revoke.isPending}
            actionLabel="Revoke"
            pendingLabel="Revoking..."
            onConfirm={() => void confirm()}
          />
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  )
}
