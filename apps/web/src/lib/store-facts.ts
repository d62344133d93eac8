// What the shop configured on the server and handed to the web app in every page it serves (the
// contract's STORE_META tags): one value, read here. Without them (the Vite dev server, tests) the
// contract's defaults apply.
import { DEFAULT_SUPPORT_EMAIL, STORE_META } from '@keystore/contract/constants';

function meta(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

/** The shop's support address (SUPPORT_EMAIL), shown in the footer and the legal pages. */
export function supportEmail(): string {
  return meta(STORE_META.supportEmail) ?? DEFAULT_SUPPORT_EMAIL;
}
