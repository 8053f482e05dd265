/**
 * Business constants and limits, with their units.
 * @see spec §9 Business constants and limits
 */

// Data fetching (spec §9 Data fetching)
/** Data is fresh for 60 s (spec §9). */
export const QUERY_STALE_TIME_MS = 60_000
/** Queries are retried once (spec §9). */
export const QUERY_RETRY_COUNT = 1
/** Unused cached data is discarded after 5 minutes (spec §9). */
export const QUERY_GC_TIME_MS = 5 * 60_000
/** The user cache time is 5 minutes (spec §7 GET /api/user). */
export const USER_CACHE_TIME_MS = 5 * 60_000
/** Subscription status is fresh for 60 s (spec §9 Data fetching). */
export const SUBSCRIPTION_STALE_TIME_MS = 60_000
/** Subscription status is re-fetched every 300 s (spec §9 Data fetching). */
export const SUBSCRIPTION_REFETCH_INTERVAL_MS = 300_000

// Toasts (spec §9 Toasts)
/** At most one toast at a time; a new one replaces the previous (spec §4 Toasts). */
export const TOAST_LIMIT = 1
/** A toast stays for 5 s (spec §9). */
export const TOAST_DURATION_MS = 5000
/** Swiping right by 50 px dismisses a toast (spec §9). */
export const TOAST_SWIPE_THRESHOLD_PX = 50
export const TOAST_SWIPE_DIRECTION = 'right' as const
/** F8 focuses the toast viewport (spec §9). */
export const TOAST_HOTKEY = ['F8'] as const
/** A dismissed toast is removed from memory after this long (spec §9). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000

// Accounts (spec §9 Accounts, ARCHITECTURE decision 3)
/** Credits a new account starts with (spec §1, §9). */
export const INITIAL_CREDITS = 20
/** Minimum password length in characters (spec §5, §9). */
export const PASSWORD_MIN_LENGTH = 8
/** Maximum password length in characters (ARCHITECTURE decision 3, NIST 800-63B). */
export const PASSWORD_MAX_LENGTH = 128
/** Maximum length of a user's name in characters: enough for any real name, bounded for storage. */
export const NAME_MAX_LENGTH = 100
/** Maximum length of an email address in characters (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254
/** Minimum age to use the service, in years (spec §9, privacy page). */
export const MINIMUM_AGE_YEARS = 13

// Canvas (spec §9 Canvas) — used by the canvas issue
export const CANVAS_MIN_ZOOM = 0.05
export const CANVAS_MAX_ZOOM = 2.5
export const CANVAS_ZOOM_BUTTON_STEP = 0.1
export const CANVAS_ZOOM_WHEEL_STEP = 0.05
/** Grid size in canvas units (spec §9). */
export const CANVAS_GRID_SIZE = 20
/** Autosave debounce after the last change (spec §4 Save status). */
export const AUTOSAVE_DEBOUNCE_MS = 1000
/** Periodic save check (spec §4 Save status). */
export const AUTOSAVE_INTERVAL_MS = 10_000
/** The saving indicator lingers this long (spec §4 Save status). */
export const SAVING_INDICATOR_LINGER_MS = 2000

// Script choices (spec §9 Script choices and defaults)
export const SCRIPT_STYLES = ['Professional', 'Casual', 'Friendly'] as const
export const SCRIPT_TONES = ['Conversational', 'Authoritative', 'Enthusiastic'] as const
export const SCRIPT_FORMATS = ['Explainer', 'Tutorial', 'Story'] as const

// Billing pages (spec §2 /checkout)
/** The legacy /checkout page redirects to /subscription after 3 s when the plan is missing. */
export const CHECKOUT_REDIRECT_WITHOUT_PLAN_MS = 3000
/** ...and after 2 s when a plan is given. */
export const CHECKOUT_REDIRECT_WITH_PLAN_MS = 2000
