/** How long a success shows before the next dialog (SPEC §9): a verified code leads to login, or closes. */
export const SUCCESS_TO_LOGIN_MS = 1500;

/** The forgot-password dialog closes this long after the request (SPEC §8). */
export const FORGOT_CLOSE_MS = 2000;
