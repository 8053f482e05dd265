import { WorkflowIcon } from 'lucide-react'
import { PlaceholderPage } from '@/components/layout/placeholder-page'

/** / (Dashboard): the canvas editor. A placeholder until the canvas issue lands. */
export function CanvasPage() {
  return (
    <PlaceholderPage
      title="Dashboard"
      icon={WorkflowIcon}
      message="The canvas editor is coming soon: you will build scripts, scenes and images here by connecting nodes."
    />
  )
}
