// A real SMTP server on loopback that keeps every message it receives, for tests (and the login
// benchmark) to read codes and links from, the way a customer reads their inbox.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The Reply-To address, when the mail has one. */
  replyTo?: string | undefined;
}

export interface SmtpSink {
  /** The SMTP_URL to hand to the store. */
  url: string;
  /** Every mail received, oldest first. */
  mails: SunkMail[];
  /** While true, the sink refuses mail with a temporary error (450), like a server that is down. */
  failing: boolean;
  /** The oldest mail to `address` not taken yet, waiting for one to arrive if need be. */
  nextMail(address: string, timeoutMs?: number): Promise<SunkMail>;
  /** How many mails to `address` are waiting to be taken. */
  waiting(address: string): number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const untaken: SunkMail[] = [];
  const waiters = new Set<() => void>();
  const sink = { failing: false };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (sink.failing) {
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 450 }));
          return;
        }
        const mail = parseMail(Buffer.concat(chunks).toString('latin1'));
        mails.push(mail);
        untaken.push(mail);
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const take = (address: string) => {
    const index = untaken.findIndex((mail) => mail.to.includes(address.toLowerCase()));
    return index < 0 ? undefined : untaken.splice(index, 1)[0];
  };

  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waiting: (address: string) => untaken.filter((mail) => mail.to.includes(address.toLowerCase())).length,
    async nextMail(address: string, timeoutMs = 5000): Promise<SunkMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = take(address);
        if (mail) return mail;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The 6-digit code of a verification or new-device mail (the same in its text and HTML). */
export function codeIn(mail: SunkMail): string {
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  if (!code || !mail.html.includes(code)) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

/** The link to a page of the store (`/confirm-email`, `/reset-password`) carried by a mail. */
export function linkIn(mail: SunkMail, pathname: string): URL {
  for (const match of mail.text.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname === pathname) return url;
  }
  throw new Error(`no ${pathname} link in "${mail.subject}"`);
}

// A small MIME reader for what nodemailer writes: headers, multipart/alternative, quoted-printable or base64 parts.
function parseMail(raw: string): SunkMail {
  const { headers } = splitEntity(raw);
  const bodies = { text: '', html: '' };
  collectBodies(raw, bodies);
  const to = (headers.get('to') ?? '').split(',').map((address) => (/<([^>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase());
  const replyHeader = headers.get('reply-to');
  const replyTo = replyHeader ? (/<([^>]+)>/.exec(replyHeader)?.[1] ?? replyHeader).trim().toLowerCase() : undefined;
  return { to, subject: decodeWords(headers.get('subject') ?? ''), replyTo, ...bodies };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectBodies(raw: string, bodies: { text: string; html: string }): void {
  const { headers, body } = splitEntity(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) if (!part.startsWith('--')) collectBodies(part.replace(/^\r\n/, ''), bodies);
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit').replace(/\r\n/g, '\n').trimEnd();
  if (type.toLowerCase().startsWith('text/html')) bodies.html = decoded;
  else if (type.toLowerCase().startsWith('text/plain')) bodies.text = decoded;
}

function decodeBody(body: string, encoding: string): string {
  const bytes = Buffer.from(body, 'latin1');
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return bytes.toString('utf8');
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_match, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
  );
}
