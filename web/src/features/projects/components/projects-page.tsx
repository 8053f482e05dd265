import { FolderOpenIcon } from 'lucide-react'
import { PlaceholderPage } from '@/components/layout/placeholder-page'

/** /projects: the grid of project cards. A placeholder until the projects issue lands. */
export function ProjectsPage() {
  return (
    <PlaceholderPage
      title="Projects"
      icon={FolderOpenIcon}
      message="Your projects will be listed here soon, with actions to create, rename, open and delete them."
    />
  )
}
