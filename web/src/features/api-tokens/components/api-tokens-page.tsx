import type { CreatedToken } from '@reelgraph/shared'
import { useState } from 'react'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { CreateTokenForm } from './create-token-form'
import { NewTokenNotice } from './new-token-notice'
import { TokenList } from './token-list'

/**
 * /settings/api-tokens (issue 41 item 1): make a personal access token (its secret shown
 * once, with Copy), see the account's tokens, and revoke them. Reached from the user menu.
 */
export function ApiTokensPage() {
  useDocumentTitle('API tokens')
  // The secret lives in this state only: leaving the page forgets it.
  const [created, setCreated] = useState<CreatedToken | null>(null)
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-5 px-4 py-6 sm:px-6">
      <header className="flex flex-col gap-1">
        <h1 className="font-semibold text-2xl tracking-tight">API tokens</h1>
        <p className="text-muted-foreground text-sm">
          Programs and AI agents call Reelgraph as you with a token:{' '}
          <code>Authorization: Bearer rg_…</code>. A token can do only what its scopes allow, and
          spends your credits when it may generate.
        </p>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-[24rem_1fr]">
        {created ? (
          <NewTokenNotice token={created} onDone={() => setCreated(null)} />
        ) : (
          <CreateTokenForm onCreated={setCreated} />
        )}
        <section aria-labelledby="token-list-title" className="flex min-w-0 flex-col gap-3">
          <h2 id="token-list-title" className="font-semibold">
            Your tokens
          </h2>
          <TokenList />
        </section>
      </div>
    </div>
  )
}
