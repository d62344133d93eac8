// Links that carry their own right (issue 29): a guest's order page and payment, a gift's page. A token
// is a JWT (HS256) naming what it opens (`aud`: its purpose, `sub`: the id) until it expires, signed with
// a key of its own derived from JWT_SECRET, so it never passes for a session token nor one purpose's for
// another's. A token signed with JWT_SECRET_PREVIOUS still opens its link, as sessions do after a rotation.
import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** What a signed link opens. */
export type LinkPurpose = 'order' | 'gift' | 'alert-mails';

/** How long a link opens its page: a guest keeps its order's link 30 days (the refund window). */
export const SIGNED_LINK_DAYS = 30;

const keyOf = (secret: string) => createHmac('sha256', secret).update('keystore signed link').digest();

export class SignedLinks {
  private readonly key: Uint8Array;
  private readonly keys: Uint8Array[];

  constructor(secret: string, previous: readonly string[] = []) {
    this.key = keyOf(secret);
    this.keys = [this.key, ...previous.map(keyOf)];
  }

  /** A token opening `id` for `purpose`, for `days`. */
  sign(purpose: LinkPurpose, id: string, days = SIGNED_LINK_DAYS): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(purpose)
      .setSubject(id)
      .setIssuedAt()
      .setExpirationTime(`${days}d`)
      .sign(this.key);
  }

  /** Whether `token` opens `id` for `purpose` now: signed by us, unexpired, for that very id and purpose. */
  async opens(purpose: LinkPurpose, id: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    for (const key of this.keys) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: purpose, subject: id });
        return payload.sub === id;
      } catch {
        // Not this key's, or not valid: the next key, then no.
      }
    }
    return false;
  }
}
