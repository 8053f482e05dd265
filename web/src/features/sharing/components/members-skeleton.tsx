/** Three placeholder member rows while the members load (issue 6 item 1). */
export function MembersSkeleton() {
  return (
    <div role="status" aria-label="Loading members" className="grid gap-3 py-2">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex animate-pulse items-center gap-3" aria-hidden>
          <div className="size-8 rounded-full bg-muted" />
          <div className="grid flex-1 gap-1.5">
            <div className="h-3 w-1/3 rounded bg-muted" />
            <div className="h-3 w-1/2 rounded bg-muted" />
          </div>
          <div className="h-6 w-16 rounded-full bg-muted" />
        </div>
      ))}
    </div>
  )
}
