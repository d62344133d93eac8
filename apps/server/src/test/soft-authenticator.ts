// A software passkey for server tests: what a browser and its authenticator answer to a WebAuthn
// ceremony (W3C WebAuthn Level 3, "none" attestation, an ES256 key), built from the options the
// store hands out. The browser journeys use Chromium's own virtual authenticator instead.
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

/** A credential as the store's API takes it (the JSON of @simplewebauthn/browser). */
export interface CredentialJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: Record<string, string | string[]>;
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private signCount = 0;
  private userHandle = '';

  constructor() {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  /** The answer to `navigator.credentials.create()` with the store's registration options, made on `origin`. */
  create(options: Record<string, unknown>, origin: string, rpId = (options.rp as { id: string }).id): CredentialJson {
    this.userHandle = (options.user as { id: string }).id;
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([this.authDataHead(rpId, 0x45), Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return this.credential({ clientDataJSON: b64url(Buffer.from(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ['internal'] });
  }

  /** The answer to `navigator.credentials.get()` with the store's sign-in options, made on `origin`. */
  get(options: Record<string, unknown>, origin: string, rpId = options.rpId as string): CredentialJson {
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const authData = this.authDataHead(rpId, 0x05);
    const signature = createSign('SHA256').update(Buffer.concat([authData, sha256(clientDataJSON)])).sign(this.privateKey);
    return this.credential({ clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: this.userHandle });
  }

  /** rpIdHash, flags (user present 0x01, verified 0x04, attested data 0x40) and the signature counter. */
  private authDataHead(rpId: string, flags: number): Buffer {
    this.signCount += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  private credential(response: Record<string, string | string[]>): CredentialJson {
    const id = b64url(this.credentialId);
    return { id, rawId: id, type: 'public-key', response, clientExtensionResults: {}, authenticatorAttachment: 'platform' };
  }
}
