/**
 * What the "Change not saved" toast says when the sync server closed the connection for a
 * refused update without saying why (its `update-refused` message normally does).
 */
export const CHANGE_REFUSED_FALLBACK = 'The server did not accept your last change.'

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
  /** An image node connected to a Video Generator (issue 22 item 3); the description names it. */
  startImageSet: { title: 'Start Image Set' },
  saveFailed: {
    title: 'Save Failed',
    description: "Changes couldn't be saved. Please try again.",
    variant: 'destructive',
  },
  /**
   * A change was refused (issue 11): by the sync server, or by the canvas before writing it
   * (a limit). The description is the server's person-facing `message` (shared's
   * UPDATE_REFUSAL_MESSAGES).
   */
  changeRefused: { title: 'Change not saved', variant: 'destructive' },
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
