import { MEMBER_MESSAGES } from '@reelgraph/shared'
import { EyeIcon } from 'lucide-react'
import { Tooltip } from 'radix-ui'
import { Badge } from '@/components/ui/badge'

const EXPLANATION = MEMBER_MESSAGES.editorsOnly

/**
 * "View only" in the editor's top bar for a viewer, with a tooltip saying why nothing can be
 * changed (issue 6 item 1). Focusable, so keyboard users reach the explanation too.
 */
export function ViewOnlyBadge() {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <Badge
          variant="secondary"
          tabIndex={0}
          aria-describedby="view-only-explanation"
          className="outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <EyeIcon aria-hidden />
          View only
        </Badge>
      </Tooltip.Trigger>
      <span id="view-only-explanation" className="sr-only">
        {EXPLANATION}
      </span>
      <Tooltip.Portal>
        <Tooltip.Content
          side="bottom"
          sideOffset={6}
          className="z-50 max-w-64 rounded-md bg-foreground px-2 py-1 text-background text-xs shadow-md"
        >
          {EXPLANATION}
          <Tooltip.Arrow className="fill-foreground" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  )
}
