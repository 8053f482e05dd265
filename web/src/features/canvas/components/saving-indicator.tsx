import { Spinner } from '@/components/ui/spinner'
import { useSavingIndicator } from '@/stores/save-status'

/** "Saving changes..." while saving, lingering 2 s after (spec §2, §4 Save status). */
export function SavingIndicator() {
  const savingIndicator = useSavingIndicator()
  return (
    <span
      aria-hidden={!savingIndicator}
      className={
        savingIndicator
          ? 'flex items-center gap-2 text-muted-foreground text-sm'
          : 'invisible flex items-center gap-2 text-sm'
      }
    >
      {/* Mounted only while visible: an invisible spinning element still costs a frame per refresh. */}
      {savingIndicator ? <Spinner /> : <span className="size-4" />}
      Saving changes...
    </span>
  )
}
