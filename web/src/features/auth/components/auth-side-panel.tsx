import { CloudIcon, UsersIcon, WorkflowIcon } from 'lucide-react'
import { LogoMark } from '@/components/layout/logo'

const FEATURES = [
  {
    icon: WorkflowIcon,
    title: 'Intuitive node canvas',
    text: 'Drag, drop and connect nodes to go from an idea to a script, scenes and images.',
  },
  {
    icon: CloudIcon,
    title: 'Secure cloud storage',
    text: 'Your projects live in the cloud and save automatically while you work.',
  },
  {
    icon: UsersIcon,
    title: 'Real-time collaboration',
    text: 'Edit the same project with your team and see each change as it happens.',
  },
] as const

/**
 * The sign-in page's side panel with the three features of spec §1. The page shows it on
 * wide screens only (spec §2 /auth).
 */
export function AuthSidePanel() {
  return (
    <aside className="relative flex flex-1 flex-col justify-center overflow-hidden bg-primary p-12 text-primary-foreground">
      <div
        aria-hidden
        className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-white/10 blur-3xl"
      />
      <div className="relative mx-auto flex max-w-md flex-col gap-10">
        <div className="flex flex-col gap-4">
          <LogoMark className="size-12 [&_rect]:fill-white/15" />
          <h2 className="font-semibold text-3xl leading-tight tracking-tight">
            Turn ideas into videos, one node at a time
          </h2>
          <p className="text-primary-foreground/80">
            Reelgraph connects AI script writing, scene planning and image generation on a single
            canvas.
          </p>
        </div>
        <ul className="flex flex-col gap-6">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/15">
                <Icon className="size-5" aria-hidden />
              </span>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="text-primary-foreground/80 text-sm">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  )
}
