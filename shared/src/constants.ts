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

// Canvas editor (spec §9 Canvas, Image defaults; issue 3 item 5) — used by web's canvas
/** Fit view leaves 100 px around the graph (spec §9). */
export const CANVAS_FIT_VIEW_PADDING_PX = 100
/** Fit view assumes a node not yet measured is 300 x 200 canvas units (spec §9). */
export const CANVAS_ASSUMED_NODE_WIDTH = 300
export const CANVAS_ASSUMED_NODE_HEIGHT = 200
/** Node widths in px: 280 to 320, image nodes 320 to 400 (spec §9). */
export const NODE_MIN_WIDTH_PX = 280
export const NODE_MAX_WIDTH_PX = 320
export const IMAGE_NODE_MIN_WIDTH_PX = 320
export const IMAGE_NODE_MAX_WIDTH_PX = 400
/** Pasted nodes land this many canvas units right and down of the copies, so both show. */
export const CANVAS_PASTE_OFFSET = 40
/** Edits closer together than this are one undo step (Y.UndoManager's default, in ms). */
export const CANVAS_UNDO_CAPTURE_MS = 500
/**
 * With no copy on the device, the canvas waits this long (ms) for the server's copy before
 * opening empty; edits made meanwhile merge with it when it arrives (Yjs).
 */
export const CANVAS_REMOTE_LOAD_TIMEOUT_MS = 5000
/** After the sync server could not load a document, the editor reconnects after this long (ms). */
export const SYNC_LOAD_RETRY_MS = 5000
/**
 * Once the server holds all of this device's changes, a store must follow within the max
 * debounce (10 s); with no `saved` or `save-failed` message this long after that (ms),
 * changes left from an earlier page load were already stored before it.
 */
export const SAVE_ACK_TIMEOUT_MS = 15_000

// Scene generation (spec §5 Scene generation, §9 Canvas)
export const SCENE_COUNT_MIN = 1
export const SCENE_COUNT_MAX = 25
export const SCENE_COUNT_DEFAULT = 6

// Image generation (spec §5 Image generation, §9 Image defaults)
/** Image width and height in px: 64 to 2048 in steps of 8, default 1280 x 720. */
export const IMAGE_SIZE_MIN_PX = 64
export const IMAGE_SIZE_MAX_PX = 2048
export const IMAGE_SIZE_STEP_PX = 8
export const IMAGE_DEFAULT_WIDTH_PX = 1280
export const IMAGE_DEFAULT_HEIGHT_PX = 720
/** Inference steps: 1 to 100, default 25. */
export const IMAGE_STEPS_MIN = 1
export const IMAGE_STEPS_MAX = 100
export const IMAGE_DEFAULT_STEPS = 25
/** Guidance scale: 1 to 20 in steps of 0.1, default 7.5. */
export const IMAGE_GUIDANCE_MIN = 1
export const IMAGE_GUIDANCE_MAX = 20
export const IMAGE_GUIDANCE_STEP = 0.1
export const IMAGE_DEFAULT_GUIDANCE = 7.5
/** A random seed is an integer from 0 to 2147483647 (spec §9). */
export const IMAGE_SEED_MAX = 2_147_483_647
/** The name a downloaded image is saved under (spec §9). */
export const GENERATED_IMAGE_FILENAME = 'generated-image.jpg'
/**
 * Below this zoom, nodes show a compact summary instead of their fields: the text is too
 * small to read or edit there, and a 1,000-node graph fitted in view then renders quickly.
 */
export const CANVAS_COMPACT_NODE_ZOOM = 0.4
/**
 * Presence: a client sends its cursor at most once per this many ms (20 a second) — smooth
 * enough to follow, and a fraction of the awareness traffic of every pointer event.
 */
export const PRESENCE_CURSOR_INTERVAL_MS = 50
/**
 * Presence colours (cursors, selection outlines, avatars), one per user chosen from the
 * user id, so a person keeps their colour in every tab and on every client. Dark enough
 * for white initials on them: at least 4.5:1 (WCAG 1.4.3; issue 14 item 9).
 */
export const PRESENCE_COLORS = [
  '#e11d48',
  '#b45309',
  '#15803d',
  '#0e7490',
  '#2563eb',
  '#7c3aed',
  '#c026d3',
  '#0f766e',
] as const

/**
 * Characters of an image or clip prompt (and its negative prompt): a paragraph. Here rather
 * than in `ai.ts` so that `clips.ts` needs no import of `ai.ts`, whose graph imports reach the
 * node registry and the Video Generator back (an import cycle that failed to load in Node).
 */
export const PROMPT_MAX_LENGTH = 4000
