import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Passkey, RecoveryCodes, SignedInDevice, TotpSetup } from '@keystore/contract';
import { securityMessages } from '@keystore/contract/messages';
import { messageOf } from '../../lib/api.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { PasswordField } from './password-field.tsx';
import {
  devicesQuery,
  securityQuery,
  sellerApiKeysQuery,
  useAddPasskey,
  useDisableTotp,
  useEnableTotp,
  useNewRecoveryCodes,
  useRemovePasskey,
  useSignOutDevice,
  useSignOutOthers,
  useTotpSetup,
} from './security-api.ts';
import controls from './controls.module.css';
import styles from './profile-page.module.css';
import security from './security-section.module.css';

const SOMETHING_WENT_WRONG = 'That did not work. Please try again.';

/** The profile's Security section (issue 30): the authenticator app, passkeys and the signed-in devices. */
export function SecuritySection({ token }: { token: string }) {
  return (
    <section className={styles.card} aria-labelledby="security-title">
      <h2 id="security-title" className={styles.cardTitle}>
        Security
      </h2>
      <AuthenticatorApp token={token} />
      <Passkeys token={token} />
      <Devices token={token} />
      <SellerApiKeys token={token} />
    </section>
  );
}

// --- the authenticator app ---

function AuthenticatorApp({ token }: { token: string }) {
  const overview = useQuery(securityQuery(token));
  const [dialog, setDialog] = useState<'setup' | 'codes' | 'off' | null>(null);
  const on = overview.data?.totp === true;
  return (
    <div className={security.block} aria-labelledby="totp-title">
      <div className={security.head}>
        <h3 id="totp-title" className={security.title}>
          Authenticator app
        </h3>
        <span className={on ? security.on : security.off}>{on ? 'On' : 'Off'}</span>
      </div>
      <p className={styles.cardText}>
        {on
          ? `Signing in asks for a 6-digit code from your app. Recovery codes left: ${overview.data?.recoveryCodesLeft ?? 0} of 10.`
          : 'Add a second step to signing in: a 6-digit code from an app such as Google Authenticator, 1Password or Aegis. Someone who learns your password still cannot get in.'}
      </p>
      <div className={controls.actions}>
        {on ? (
          <>
            <button type="button" className={controls.secondary} onClick={() => setDialog('codes')}>
              New recovery codes
            </button>
            <button type="button" className={controls.danger} onClick={() => setDialog('off')}>
              Turn off
            </button>
          </>
        ) : (
          <button type="button" className={controls.primary} disabled={!overview.data} onClick={() => setDialog('setup')}>
            Set up authenticator app
          </button>
        )}
      </div>
      {dialog === 'setup' && <TotpSetupDialog onClose={() => setDialog(null)} />}
      {dialog === 'codes' && <NewCodesDialog onClose={() => setDialog(null)} />}
      {dialog === 'off' && <TurnOffDialog onClose={() => setDialog(null)} />}
    </div>
  );
}

/** Set-up in three steps: the password, then the QR code (or the key typed in) with the app's first code, then the recovery codes. */
function TotpSetupDialog({ onClose }: { onClose: () => void }) {
  const setUp = useTotpSetup();
  const enable = useEnableTotp();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<RecoveryCodes | null>(null);
  const busy = setUp.isPending || enable.isPending;
  if (codes) {
    return (
      <Modal title="Save your recovery codes" onClose={onClose}>
        <RecoveryCodeList codes={codes.recoveryCodes} onDone={onClose} />
      </Modal>
    );
  }
  return (
    <Modal title="Set up authenticator app" busy={busy} onClose={onClose}>
      {setup ? (
        <CodeStep
          intro={
            <>
              <p className={styles.cardText}>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
              {/* The store's own SVG (the qrcode library's), drawn from the otpauth:// address. */}
              <div className={security.qr} role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
              <p className={styles.cardText}>
                Cannot scan it? Type this key into the app instead:
                <code className={security.secret}>{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
              </p>
            </>
          }
          submitLabel="Turn on"
          onSubmit={async (code) => {
            const answer = await enable.mutateAsync({ code });
            showToast(answer.message);
            setCodes(answer);
          }}
          onCancel={onClose}
        />
      ) : (
        <PasswordStep
          intro="Type your password to set up an authenticator app."
          submitLabel="Continue"
          onSubmit={async (password) => setSetup(await setUp.mutateAsync({ password }))}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

function NewCodesDialog({ onClose }: { onClose: () => void }) {
  const regenerate = useNewRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Modal title={codes ? 'Save your recovery codes' : 'New recovery codes'} busy={regenerate.isPending} onClose={onClose}>
      {codes ? (
        <RecoveryCodeList codes={codes} onDone={onClose} />
      ) : (
        <PasswordAndCodeStep
          intro="New codes replace the old ones, which stop working at once."
          submitLabel="Make new codes"
          onSubmit={async (body) => {
            const answer = await regenerate.mutateAsync(body);
            showToast(answer.message);
            setCodes(answer.recoveryCodes);
          }}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

function TurnOffDialog({ onClose }: { onClose: () => void }) {
  const disable = useDisableTotp();
  return (
    <Modal title="Turn off the authenticator app?" busy={disable.isPending} onClose={onClose}>
      <PasswordAndCodeStep
        intro="Signing in will no longer ask for the app's code. Your recovery codes stop working."
        submitLabel="Turn off"
        danger
        onSubmit={async (body) => {
          showToast((await disable.mutateAsync(body)).message);
          onClose();
        }}
        onCancel={onClose}
      />
    </Modal>
  );
}

/** The recovery codes, shown once: copy them or download them as a text file. */
function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Keystore recovery codes\n\n${codes.join('\n')}\n\nEach code signs you in once, instead of the authenticator app's code.\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      showToast('Recovery codes copied');
    } catch {
      showToast('Could not copy: select the codes and copy them yourself', 'error');
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'keystore-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div className={styles.form}>
      <p className={styles.cardText}>
        Keep these codes somewhere safe. If you lose your phone, each one signs you in once. They are shown only now.
      </p>
      <ul className={security.codes} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className={controls.actions}>
        <button type="button" className={controls.secondary} onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className={controls.secondary} onClick={download}>
          Download
        </button>
        <button type="button" className={controls.primary} onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

// --- passkeys ---

function Passkeys({ token }: { token: string }) {
  const overview = useQuery(securityQuery(token));
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const passkeys = overview.data?.passkeys ?? [];
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  return (
    <div className={security.block}>
      <div className={security.head}>
        <h3 className={security.title}>Passkeys</h3>
      </div>
      <p className={styles.cardText}>Sign in with your fingerprint, face or screen lock instead of a password and a code.</p>
      {passkeys.length > 0 && (
        <ul className={security.list} aria-label="Your passkeys">
          {passkeys.map((passkey: Passkey) => (
            <li key={passkey._id} className={security.item}>
              <div>
                <p className={security.itemName}>{passkey.name}</p>
                <p className={security.itemNote}>
                  Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'not used yet'}
                </p>
              </div>
              <button
                type="button"
                className={controls.danger}
                disabled={remove.isPending}
                aria-label={`Remove passkey ${passkey.name}`}
                onClick={() =>
                  remove.mutate(passkey._id, {
                    onSuccess: () => showToast(securityMessages.passkeyRemoved),
                    onError: (error) => showToast(messageOf(error, SOMETHING_WENT_WRONG), 'error'),
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={controls.actions}>
        <button type="button" className={controls.primary} disabled={!supported || !overview.data} onClick={() => setAdding(true)}>
          Add a passkey
        </button>
      </div>
      {!supported && <p className={styles.cardText}>This browser cannot make passkeys.</p>}
      {adding && <AddPasskeyDialog token={token} onClose={() => setAdding(false)} />}
    </div>
  );
}

function AddPasskeyDialog({ token, onClose }: { token: string; onClose: () => void }) {
  const add = useAddPasskey();
  const nameId = useId();
  const [name, setName] = useState(defaultPasskeyName());
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const totpOn = useQuery(securityQuery(token)).data?.totp === true;
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError(securityMessages.passkeyNameRequired);
    if (!password) return setError(PASSWORD_MISSING);
    const digits = code.replace(/\s+/g, '');
    if (totpOn && !/^\d{6}$/.test(digits)) return setError(securityMessages.codeRequired);
    try {
      await add.mutateAsync({ name: name.trim(), password, ...(totpOn ? { code: digits } : {}) });
      showToast(securityMessages.passkeyAdded);
      onClose();
    } catch (failure) {
      // The person closed the browser's prompt: leave the dialog as it was.
      if (failure instanceof Error && (failure.name === 'NotAllowedError' || failure.name === 'AbortError')) return;
      setError(messageOf(failure, securityMessages.passkeyRefused));
    }
  };
  return (
    <Modal title="Add a passkey" busy={add.isPending} onClose={onClose}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <div className={controls.field}>
          <label htmlFor={nameId} className={controls.label}>
            Name
          </label>
          <input id={nameId} className={controls.input} value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <PasswordField label="Your password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        {totpOn && <CodeField id={`${nameId}-code`} code={code} setCode={setCode} error={null} />}
        <p className={controls.error} role="alert">
          {error}
        </p>
        <div className={controls.actions}>
          <button type="button" className={controls.secondary} onClick={onClose} disabled={add.isPending}>
            Cancel
          </button>
          <button type="submit" className={controls.primary} disabled={add.isPending}>
            {add.isPending ? 'Waiting for your device…' : 'Add passkey'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** "Chrome on Windows": what a passkey made here is first called. */
function defaultPasskeyName(): string {
  if (typeof navigator === 'undefined') return 'My passkey';
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'Browser';
  const system = /Windows/.test(agent) ? 'Windows' : /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS/.test(agent) ? 'macOS' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

// --- signed-in devices ---

function Devices({ token }: { token: string }) {
  const devices = useQuery(devicesQuery(token));
  const signOut = useSignOutDevice();
  const signOutOthers = useSignOutOthers();
  const apiKeys = useQuery(sellerApiKeysQuery(token));
  const [confirming, setConfirming] = useState(false);
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const others = (devices.data ?? []).filter((device) => !device.current).length;
  const hasApiKeys = (apiKeys.data?.length ?? 0) > 0;
  return (
    <div className={security.block}>
      <div className={security.head}>
        <h3 className={security.title}>Signed-in devices</h3>
      </div>
      {devices.isError && <p className={controls.error}>Could not load your devices.</p>}
      <ul className={security.list} aria-label="Signed-in devices">
        {(devices.data ?? []).map((device: SignedInDevice) => (
          <li key={device._id} className={security.item}>
            <div>
              <p className={security.itemName}>
                {device.browser} on {device.os}
                {device.current && <span className={security.on}>This device</span>}
              </p>
              <p className={security.itemNote}>
                {device.place} · signed in {formatDate(device.createdAt)} · last active {formatDate(device.lastSeenAt)}
              </p>
            </div>
            {!device.current && (
              <button
                type="button"
                className={controls.secondary}
                disabled={signOut.isPending}
                aria-label={`Sign out ${device.browser} on ${device.os}`}
                onClick={() =>
                  signOut.mutate(device._id, {
                    onSuccess: () => showToast(securityMessages.sessionRevoked),
                    onError: (error) => showToast(messageOf(error, SOMETHING_WENT_WRONG), 'error'),
                  })
                }
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className={controls.actions}>
        <button type="button" className={controls.danger} disabled={(others === 0 && !hasApiKeys) || signOutOthers.isPending} onClick={() => setConfirming(true)}>
          Sign out all other devices
        </button>
      </div>
      {confirming && (
        <Modal title="Sign out all other devices?" busy={signOutOthers.isPending} onClose={() => setConfirming(false)}>
          <div className={styles.form}>
            <p className={styles.cardText}>Every other browser and app signed in to your account is signed out at once. This one stays signed in.</p>
            {hasApiKeys && (
              <label className={security.check}>
                <input type="checkbox" checked={revokeApiKeys} onChange={(event) => setRevokeApiKeys(event.target.checked)} />
                Also delete my seller API keys (systems that use them stop working)
              </label>
            )}
            <div className={controls.actions}>
              <button type="button" className={controls.secondary} onClick={() => setConfirming(false)} disabled={signOutOthers.isPending}>
                Cancel
              </button>
              <button
                type="button"
                className={`${controls.danger} ${controls.solid}`}
                disabled={signOutOthers.isPending}
                onClick={() =>
                  signOutOthers.mutate(
                    { revokeApiKeys: hasApiKeys && revokeApiKeys },
                    {
                      onSuccess: (answer) => {
                        setConfirming(false);
                        showToast(answer.message);
                      },
                      onError: (error) => showToast(messageOf(error, SOMETHING_WENT_WRONG), 'error'),
                    },
                  )
                }
              >
                Sign out others
              </button>
            </div>
          </div>
        </Modal>
      )}
    </div>
  );
}

/** A seller's API keys, with their last use (the seller area makes and revokes them): shown only to a seller who has some. */
function SellerApiKeys({ token }: { token: string }) {
  const keys = useQuery(sellerApiKeysQuery(token));
  if (!keys.data || keys.data.length === 0) return null;
  return (
    <div className={security.block}>
      <div className={security.head}>
        <h3 className={security.title}>Seller API keys</h3>
      </div>
      <p className={styles.cardText}>Your systems sign in with these. Make or revoke them in the seller area.</p>
      <ul className={security.list} aria-label="Seller API keys">
        {keys.data.map((key) => (
          <li key={key._id} className={security.item}>
            <div>
              <p className={security.itemName}>{key.name}</p>
              <p className={security.itemNote}>
                Created {formatDate(key.createdAt)} · {key.lastUsedAt ? `last used ${formatDate(key.lastUsedAt)}` : 'never used'}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

// --- the steps the dialogs share ---

const PASSWORD_MISSING = 'Please enter your password';

/** The six digits of a typed code (spaces dropped), or undefined when it is not one. */
function digitsOf(code: string): string | undefined {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * A step's submit: `check` answers what is wrong before anything is sent (or nothing), then `send`
 * runs; its failure is shown with the server's words. The step stays busy once sent successfully
 * (the dialog moves on or closes).
 */
function useStepSubmit(check: () => string | undefined, send: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = check();
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await send();
    } catch (failure) {
      setError(messageOf(failure, SOMETHING_WENT_WRONG));
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

function PasswordStep({ intro, submitLabel, onSubmit, onCancel }: { intro: string; submitLabel: string; onSubmit: (password: string) => Promise<void>; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useStepSubmit(
    () => (password ? undefined : PASSWORD_MISSING),
    () => onSubmit(password),
  );
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.cardText}>{intro}</p>
      <PasswordField label="Your password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} error={error ?? undefined} />
      <StepActions busy={busy} submitLabel={submitLabel} onCancel={onCancel} />
    </form>
  );
}

function CodeStep({ intro, submitLabel, onSubmit, onCancel }: { intro: ReactNode; submitLabel: string; onSubmit: (code: string) => Promise<void>; onCancel: () => void }) {
  const id = useId();
  const [code, setCode] = useState('');
  const { error, busy, submit } = useStepSubmit(
    () => (digitsOf(code) ? undefined : securityMessages.codeRequired),
    () => onSubmit(digitsOf(code)!),
  );
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {intro}
      <CodeField id={id} code={code} setCode={setCode} error={error} />
      <StepActions busy={busy} submitLabel={submitLabel} onCancel={onCancel} />
    </form>
  );
}

function PasswordAndCodeStep({
  intro,
  submitLabel,
  danger = false,
  onSubmit,
  onCancel,
}: {
  intro: string;
  submitLabel: string;
  danger?: boolean;
  onSubmit: (body: { password: string; code: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { error, busy, submit } = useStepSubmit(
    () => (!password ? PASSWORD_MISSING : digitsOf(code) ? undefined : securityMessages.codeRequired),
    () => onSubmit({ password, code: digitsOf(code)! }),
  );
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.cardText}>{intro}</p>
      <PasswordField label="Your password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <CodeField id={id} code={code} setCode={setCode} error={error} />
      <StepActions busy={busy} submitLabel={submitLabel} onCancel={onCancel} danger={danger} />
    </form>
  );
}

function CodeField({ id, code, setCode, error }: { id: string; code: string; setCode: (code: string) => void; error: string | null }) {
  return (
    <div className={controls.field}>
      <label htmlFor={id} className={controls.label}>
        Code from your authenticator app
      </label>
      <input
        id={id}
        className={controls.input}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <p id={`${id}-error`} className={controls.error} role="alert">
        {error}
      </p>
    </div>
  );
}

function StepActions({ busy, submitLabel, onCancel, danger = false }: { busy: boolean; submitLabel: string; onCancel: () => void; danger?: boolean }) {
  return (
    <div className={controls.actions}>
      <button type="button" className={controls.secondary} onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className={danger ? `${controls.danger} ${controls.solid}` : controls.primary} disabled={busy}>
        {busy ? 'Please wait…' : submitLabel}
      </button>
    </div>
  );
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
