import { SparklesIcon } from 'lucide-react'
import { Tooltip } from 'radix-ui'
import { useId } from 'react'
import { Button } from '@/components/ui/button'

/** What the disabled generation buttons say until the generation issue wires them. */
export const GENERATION_COMING_SOON = 'AI generation is coming soon: this button is not active yet.'

/**
 * A generation button (Generate Script / Scenes / Image). Generation is not wired yet
 * (issue 3: "they render, validate their inputs and stay disabled with a tooltip"), so it
 * is always disabled; `issue` is the spec §5 message for the current inputs, shown under
 * it as a hint. The tooltip sits on a focusable wrapper, since a disabled button gets no events.
 */
export function GenerateButton({ label, issue }: { label: string; issue: string | null }) {
  const id = useId()
  return (
    <div className="grid gap-1">
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <span
            tabIndex={0}
            className="nodrag flex rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            aria-describedby={`${id}-why`}
          >
            <Button
              type="button"
              size="sm"
              className="w-full"
              disabled
              aria-describedby={`${id}-why`}
            >
              <SparklesIcon aria-hidden />
              {label}
            </Button>
          </span>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            side="bottom"
            sideOffset={6}
            className="z-50 max-w-60 rounded-md bg-foreground px-2 py-1 text-background text-xs shadow-md"
          >
            {GENERATION_COMING_SOON}
            <Tooltip.Arrow className="fill-foreground" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
      <span id={`${id}-why`} className="sr-only">
        {GENERATION_COMING_SOON}
      </span>
      {issue ? <p className="text-muted-foreground text-xs">{issue}</p> : null}
    </div>
  )
}
