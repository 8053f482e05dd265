import { KeyRoundIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { useProjects } from '@/lib/projects-api'
import { useApiTokens, useRevokeApiToken } from '../api/tokens-api'
import { formatTokenDate, scopeLabels } from '../lib/token-view'

/** The projects of a token as the list shows them: their names, or "All projects". */
function useProjectNames(): (ids: readonly number[] | null) => string {
  const projects = useProjects()
  return (ids) => {
    if (ids === null) return 'All projects'
    const names = new Map(projects.data?.map((p) => [p.id, p.name] as const))
    return ids.map((id) => names.get(id) ?? `Project ${id}`).join(', ')
  }
}

/**
 * The account's tokens (issue 41 item 1): name and prefix, scopes, projects, created, last
 * used and expiry, each with a Revoke button that asks first ("Revoke <name>?": programs using
 * the token stop working at once). Loading, empty and error states.
 */
export function TokenList() {
  const tokens = useApiTokens()
  const projectNames = useProjectNames()
  const revoke = useRevokeApiToken()

  if (tokens.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
        <Spinner /> Loading your tokens...
      </p>
    )
  }
  if (tokens.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-2 rounded-xl border p-4 text-sm">
        <p>Could not load your API tokens: {errorMessage(tokens.error)}</p>
        <Button size="sm" variant="outline" onClick={() => void tokens.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (tokens.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-8 text-center text-sm">
        <KeyRoundIcon className="size-6 text-muted-foreground" aria-hidden />
        <p className="font-medium">No API tokens yet</p>
        <p className="text-muted-foreground">
          Make one to let a program or an AI agent use Reelgraph as you.
        </p>
      </div>
    )
  }
  return (
    <div className="max-h-[30rem] overflow-auto rounded-xl border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Your API tokens</caption>
        <thead className="sticky top-0 bg-muted/80 text-muted-foreground text-xs backdrop-blur">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Name
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Scopes
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Projects
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Created
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Last used
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Expires
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.data.map((token) => (
            <tr key={token.id} className="border-t align-top">
              <th scope="row" className="px-3 py-2 font-medium">
                <span className="block max-w-40 truncate">{token.name}</span>
                <code className="font-normal text-muted-foreground text-xs">{token.prefix}…</code>
              </th>
              <td className="px-3 py-2">{scopeLabels(token.scopes)}</td>
              <td className="max-w-40 px-3 py-2">{projectNames(token.projectIds)}</td>
              <td className="whitespace-nowrap px-3 py-2">
                {formatTokenDate(token.createdAt, '')}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {formatTokenDate(token.lastUsedAt, 'Never')}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {formatTokenDate(token.expiresAt, 'Never')}
              </td>
              <td className="px-3 py-1.5 text-right">
                <ConfirmActionDialog
                  trigger={
                    <Button size="sm" variant="outline" aria-label={`Revoke ${token.name}`}>
                      Revoke
                    </Button>
                  }
                  title={`Revoke “${token.name}”?`}
                  description="Programs and agents using this token stop working at once: their next request is refused. This can’t be undone."
                  actionLabel="Revoke"
                  pendingLabel="Revoking..."
                  failureFallback="The token could not be revoked. Please try again."
                  onConfirm={() => revoke.mutateAsync({ id: token.id }).then(() => undefined)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
