// The facts every legal text repeats (SPEC §1), written once so the three pages cannot disagree.

export const COMPANY = 'Keystore Digital Ltd';
/** The date the current versions of the three texts took effect. */
export const LEGAL_UPDATED = '22 November 2026';
export { SUPPORT_HOURS } from '@keystore/contract/constants';
