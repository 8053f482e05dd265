import { MEMBER_MESSAGES } from '@reelgraph/shared'
import { EyeIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Tooltip } from '@/components/ui/tooltip'

const EXPLANATION = MEMBER_MESSAGES.editorsOnly

/**
 * "View only" in the editor's top bar for a viewer, with a tooltip saying why nothing can be
 * changed (issue 6 item 1). Focusable, so keyboard users reach the explanation too.
 */
export function ViewOnlyBadge() {
  return (
    <>
      <Tooltip content={EXPLANATION} className="max-w-64">
        <Badge
          variant="secondary"
          tabIndex={0}
          aria-describedby="view-only-explanation"
          className="outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <EyeIcon aria-hidden />
          View only
        </Badge>
      </Tooltip>
      <span id="view-only-explanation" className="sr-only">
        {EXPLANATION}
      </span>
    </>
  )
}
