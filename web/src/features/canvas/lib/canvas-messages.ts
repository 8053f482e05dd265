/**
 * The canvas's toasts, with the spec's wording (spec §4 Canvas behaviour, §8 Projects).
 * Titles and descriptions are split the way the toasts show them: "Title - Description".
 */
export const CANVAS_TOASTS = {
  nodeAdded: { title: 'Node Added' },
  nodeDeleted: { title: 'Node Deleted' },
  promptUpdated: {
    title: 'Prompt Updated',
    description: 'Visual instructions copied to image prompt',
  },
  saveFailed: {
    title: 'Save Failed',
    description: "Changes couldn't be saved. Please try again.",
    variant: 'destructive',
  },
  loadFailed: {
    title: 'Load Failed',
    description: 'Failed to load project data. Please try refreshing.',
    variant: 'destructive',
  },
  projectsFailed: {
    title: 'Error',
    description: 'Failed to load projects. Please try again.',
    variant: 'destructive',
  },
  projectCreated: { title: 'Project Created' },
  createFailed: {
    title: 'Error',
    description: 'Failed to create project. Please try again.',
    variant: 'destructive',
  },
  projectRenamed: { title: 'Project Renamed' },
  renameFailed: {
    title: 'Error',
    description: 'Failed to rename project. Please try again.',
    variant: 'destructive',
  },
} as const
