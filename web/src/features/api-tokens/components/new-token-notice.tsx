import type { CreatedToken } from '@reelgraph/shared'
import { CheckIcon, CopyIcon, TriangleAlertIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/** Props of {@link NewTokenNotice}. */
export interface NewTokenNoticeProps {
  token: CreatedToken
  /** Forgets the secret (the Done button). */
  onDone: () => void
}

/**
 * The secret of a token just made, shown this once with a Copy button, and a warning that it
 * will not be shown again (issue 41 item 1). The field is selected on arrival so keyboard
 * users can copy it with Ctrl+C as well.
 */
export function NewTokenNotice({ token, onDone }: NewTokenNoticeProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => {
    field.current?.focus()
    field.current?.select()
  }, [])

  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token)
      setCopied('yes')
    } catch {
      field.current?.select()
      setCopied('failed')
    }
  }

  return (
    <section
      aria-labelledby="new-token-title"
      className="flex flex-col gap-3 rounded-xl border border-amber-500/50 bg-amber-50 p-4 dark:bg-amber-950/30"
    >
      <h2 id="new-token-title" className="flex items-center gap-2 font-semibold">
        <TriangleAlertIcon className="size-4 text-amber-600" aria-hidden />
        Copy your new token “{token.name}” now
      </h2>
      <p className="text-sm">
        It will not be shown again. Store it somewhere safe, such as a password manager or your
        program’s secret settings. Send it as <code>Authorization: Bearer …</code>.
      </p>
      <div className="flex gap-2">
        <Input
          ref={field}
          readOnly
          value={token.token}
          aria-label="Your new API token"
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" onClick={() => void copy()}>
          {copied === 'yes' ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="text-sm">
        {copied === 'yes' ? 'Copied to the clipboard.' : null}
        {copied === 'failed' ? 'Could not copy: the token is selected, press Ctrl+C.' : null}
      </p>
      <div>
        <Button type="button" variant="outline" onClick={onDone}>
          Done, I have copied it
        </Button>
      </div>
    </section>
  )
}
