import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'

/** A random secret of 160 bits, base32 (32 characters). */
export function generateSecret(): string {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

/** SHA-256 of a secret, raw bytes. */
export function hashSecret(secret: string): Uint8Array {
  return sha256(new TextEncoder().encode(secret))
}

/** SHA-256 of a secret, lower-case hex: how emailed tokens are stored and looked up. */
export function hashSecretHex(secret: string): string {
  return encodeHexLowerCase(hashSecret(secret))
}
