import { hash, verify } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { ARGON2_OPTIONS } from '../../config.ts'

/** argon2id, as `Algorithm.Argon2id` (a const enum the type stripper cannot inline). */
const ARGON2ID = 2

/** Hashes a password with argon2id (ARCHITECTURE Auth); a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { ...ARGON2_OPTIONS, algorithm: ARGON2ID })
}

/** True when `password` matches the argon2 PHC `passwordHash`. Never throws for a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

let dummyHash: Promise<string> | undefined
/**
 * Verifies against a fixed hash so that an unknown email costs the same time as a known
 * one (no account enumeration through timing).
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  dummyHash ??= hashPassword('reelgraph-dummy-password')
  await verifyPassword(await dummyHash, password)
}

let commonPasswords: Set<string> | undefined
/**
 * True for the ~49,000 most common passwords (the zxcvbn-ts common list), case-insensitive.
 * ARCHITECTURE decision 3 / NIST 800-63B: refuse known-breached, common passwords.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'] as string[])
  return commonPasswords.has(password.toLowerCase())
}
