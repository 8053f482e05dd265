import { UsersIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { ShareDialogBody } from './share-dialog-body'

/**
 * "Share" in the editor's top bar and its "Share project" dialog (issue 6 item 1): every
 * member can open it to see who has access; only the owner invites, changes roles and
 * removes. The members load when the dialog opens. Given to the canvas by `app/`.
 */
export function ShareButton({
  projectId,
  projectName,
}: {
  projectId: number
  projectName: string | undefined
}) {
  const [open, setOpen] = useState(false)
  const content = useRef<HTMLDivElement>(null)
  // A toast shown from inside the dialog ("Invitation sent") is the topmost dismissable
  // layer, so Radix gives it the Escape key. Escape pressed in the dialog (or with focus
  // lost to the page, after a removed member's row went) still closes the dialog; keys
  // from the role list or a confirmation (portalled outside, focus trapped) are theirs.
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !(event.target instanceof Node)) return
      if (event.target === document.body || content.current?.contains(event.target)) {
        setOpen(false)
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open])
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" size="sm" variant="outline">
          <UsersIcon aria-hidden />
          {/* Narrow screens (390 px) keep the room for the project name: the icon only. */}
          <span className="sr-only sm:not-sr-only">Share</span>
        </Button>
      </DialogTrigger>
      <DialogContent ref={content} className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Share project</DialogTitle>
          <DialogDescription>
            Who can open {projectName ? `“${projectName}”` : 'this project'}. Its owner invites
            people by email and chooses whether they can edit or only view.
          </DialogDescription>
        </DialogHeader>
        {open ? <ShareDialogBody projectId={projectId} projectName={projectName} /> : null}
      </DialogContent>
    </Dialog>
  )
}
