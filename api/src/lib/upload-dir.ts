import { join } from 'node:path'
import type { Env } from '../env.ts'

/**
 * Where an upload is written while it is read (`DATA_DIR/upload-work`, absolute since
 * DATA_DIR is): each upload gets a folder of its own there, removed once it is stored or
 * refused.
 */
export function uploadWorkDir(env: Pick<Env, 'DATA_DIR'>): string {
  return join(env.DATA_DIR, 'upload-work')
}
