/** How many placeholder cards the loading state shows. */
const PLACEHOLDER_CARDS = 6

/** The /projects grid while the list loads: grey cards, and "Loading your projects..." for screen readers. */
export function ProjectGridSkeleton() {
  return (
    <div role="status">
      <span className="sr-only">Loading your projects...</span>
      <ul aria-hidden className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {Array.from({ length: PLACEHOLDER_CARDS }, (_, i) => (
          <li
            key={i}
            className="flex h-44 animate-pulse flex-col gap-3 rounded-xl border bg-card p-5"
          >
            <div className="h-5 w-2/3 rounded bg-muted" />
            <div className="h-4 w-full rounded bg-muted" />
            <div className="mt-auto h-3 w-1/2 rounded bg-muted" />
            <div className="h-8 w-full rounded-md bg-muted" />
          </li>
        ))}
      </ul>
    </div>
  )
}
