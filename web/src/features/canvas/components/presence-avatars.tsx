import { usePresence, usePresenceSelf } from '../hooks/use-presence'
import { initialsOf, type PresenceUser, peopleOf } from '../lib/presence'

/** Avatars shown before "+N". */
const MAX_AVATARS = 4

/**
 * Who is on the project (this person first, each person once however many tabs they have):
 * coloured initials with the name as accessible name and tooltip, then "+N".
 */
export function PresenceAvatars() {
  const self = usePresenceSelf()
  const peers = usePresence()
  const people = peopleOf([...(self ? [self] : []), ...peers.map((p) => p.user)])
  if (people.length === 0) return null
  const shown = people.slice(0, MAX_AVATARS)
  const more = people.length - shown.length
  return (
    <ul aria-label="People on this project" className="flex items-center -space-x-2">
      {shown.map((person) => (
        <Avatar key={person.id} person={person} you={person.id === self?.id} />
      ))}
      {more > 0 ? (
        <li
          className="flex size-7 items-center justify-center rounded-full border-2 border-background bg-muted font-medium text-muted-foreground text-xs"
          title={people
            .slice(MAX_AVATARS)
            .map((p) => p.name)
            .join(', ')}
          aria-label={`${more} more`}
        >
          +{more}
        </li>
      ) : null}
    </ul>
  )
}

function Avatar({ person, you }: { person: PresenceUser; you: boolean }) {
  const label = you ? `${person.name} (you)` : person.name
  return (
    <li
      className="flex size-7 items-center justify-center rounded-full border-2 border-background font-semibold text-white text-xs"
      style={{ backgroundColor: person.color }}
      title={label}
      aria-label={label}
      data-testid="presence-avatar"
    >
      <span aria-hidden>{initialsOf(person.name)}</span>
    </li>
  )
}
