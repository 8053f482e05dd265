import { createContext } from 'react'

/** The open project's id: generated images are stored as assets of it (issue 4). */
export const ProjectIdContext = createContext<number | null>(null)
