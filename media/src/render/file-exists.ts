import { access } from 'node:fs/promises'

/** True when `path` (absolute) names a file or folder this process can see. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}
