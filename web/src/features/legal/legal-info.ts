/**
 * Facts the legal pages state. The contact address should come from deployment
 * configuration once the web app has its env module.
 */
export const LEGAL_INFO = {
  /** Where questions about the terms, privacy or data requests go. */
  contactEmail: 'support@reelgraph.app',
  /** When the terms and privacy texts last changed (long US English form, spec §3). */
  lastUpdated: 'November 21, 2026',
} as const
