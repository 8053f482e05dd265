import { LayoutTemplateIcon } from 'lucide-react'
import { type ComponentType, useState } from 'react'
import { Button } from '@/components/ui/button'
import { type BatchPanelProps, TemplateGalleryDialog } from './template-gallery-dialog'

/** Props of {@link NewFromTemplateButton}. */
export interface NewFromTemplateButtonProps {
  /** The batches feature's "Batch from a table…" panel, composed in `app/`. */
  BatchPanel?: ComponentType<BatchPanelProps> | undefined
}

/**
 * "New from template" on /projects (issue 42 item 2), beside New project and Import graph…:
 * opens the template gallery; focus returns to the button when it closes.
 */
export function NewFromTemplateButton({ BatchPanel }: NewFromTemplateButtonProps) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        <LayoutTemplateIcon aria-hidden />
        New from template
      </Button>
      <TemplateGalleryDialog open={open} onOpenChange={setOpen} BatchPanel={BatchPanel} />
    </>
  )
}
