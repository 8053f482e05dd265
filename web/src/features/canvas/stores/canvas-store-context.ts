import { createContext } from 'react'
import type { CanvasStore } from './canvas-store'

/** The open project's canvas store (xyflow `StoreContext` style); read it with the hooks. */
export const CanvasStoreContext = createContext<CanvasStore | null>(null)
