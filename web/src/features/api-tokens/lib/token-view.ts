import {
  API_TOKEN_EXPIRY_DAYS_DEFAULT,
  API_TOKEN_EXPIRY_DAYS_MAX,
  type TokenScope,
  TOKEN_SCOPE_LABELS,
} from '@reelgraph/shared'

/** The lifetimes the form offers, in days; `never`: the token does not expire. */
export const EXPIRY_CHOICES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: String(API_TOKEN_EXPIRY_DAYS_DEFAULT), label: `${API_TOKEN_EXPIRY_DAYS_DEFAULT} days` },
  { value: String(API_TOKEN_EXPIRY_DAYS_MAX), label: 'A year' },
  { value: 'never', label: 'No expiry' },
] as const

/** `expiresInDays` for a choice of {@link EXPIRY_CHOICES}: undefined for no expiry. */
export function expiresInDaysOf(choice: string): number | undefined {
  return choice === 'never' ? undefined : Number(choice)
}

/** A date as the list shows it ("Dec 7, 2026"), or `none` when there is none. */
export function formatTokenDate(iso: string | null, none: string): string {
  if (iso === null) return none
  return new Date(iso).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  })
}

/** The scopes as the list shows them: "Read projects, Generate". */
export function scopeLabels(scopes: readonly TokenScope[]): string {
  return scopes.map((s) => TOKEN_SCOPE_LABELS[s].label).join(', ')
}
