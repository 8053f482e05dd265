import type { ProjectMember } from '@reelgraph/shared'
import { MemberRow } from './member-row'

/**
 * The project's members in the Share dialog, owner first (the API's order), one list item
 * per member (issue 6 item 1).
 */
export function MemberList({
  projectId,
  members,
  selfId,
  canManage,
}: {
  projectId: number
  members: readonly ProjectMember[]
  selfId: number | null
  canManage: boolean
}) {
  return (
    <section aria-labelledby="members-title" className="grid gap-1">
      <h3 id="members-title" className="font-medium text-sm">
        People with access
      </h3>
      <ul aria-labelledby="members-title" className="divide-y">
        {members.map((member) => (
          <MemberRow
            key={member.userId}
            projectId={projectId}
            member={member}
            isSelf={member.userId === selfId}
            canManage={canManage}
          />
        ))}
      </ul>
    </section>
  )
}
