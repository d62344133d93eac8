import { useEffect, useId, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { User } from '@keystore/contract';
import { accountMessages, accountUiMessages } from '@keystore/contract/messages';
import { avatarProblem } from '@keystore/contract/rules';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { Avatar } from './avatar.tsx';
import { useUploadAvatar } from './api.ts';
import { avatarUploadError } from './avatar-upload.ts';
import controls from './controls.module.css';
import styles from './avatar-modal.module.css';

interface AvatarFields {
  avatar: FileList | undefined;
}

/** The image rules of SPEC §5, checked the moment a file is chosen and again before upload. */
function chosenFileProblem(files: FileList | undefined): string | true {
  const file = files?.[0];
  if (!file) return accountMessages.avatarMissing;
  return avatarProblem(file) ?? true;
}

/** 'Edit profile photo': choose an image, see it, upload it; the new photo shows everywhere at once. */
export function AvatarModal({ user, onClose }: { user: User; onClose: () => void }) {
  const inputId = useId();
  const errorId = useId();
  const { register, handleSubmit, control, setError, clearErrors, formState } = useForm<AvatarFields>({ mode: 'onChange' });
  const files = useWatch({ control, name: 'avatar' });
  const chosen = files?.[0];
  const acceptable = chosen !== undefined && chosenFileProblem(files) === true;
  // The preview is a local object URL, released when another file is chosen or the dialog closes.
  const preview = useMemo(() => (acceptable ? URL.createObjectURL(chosen) : null), [acceptable, chosen]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const uploadAvatar = useUploadAvatar();
  const upload = handleSubmit(async ({ avatar }) => {
    try {
      await uploadAvatar.mutateAsync(avatar![0]!);
      showToast(accountUiMessages.avatarUpdated);
      onClose();
    } catch (error) {
      setError('root.server', { message: avatarUploadError(error) });
    }
  });

  const problem = formState.errors.avatar?.message ?? formState.errors.root?.server?.message;
  return (
    <Modal title="Edit profile photo" busy={formState.isSubmitting} onClose={onClose}>
      <form className={styles.form} onSubmit={upload} noValidate>
        <div className={styles.preview}>
          <Avatar src={preview ?? user.avatar} size={128} alt={preview ? 'Preview of the chosen photo' : 'Current profile photo'} />
        </div>
        <div className={styles.picker}>
          <input
            id={inputId}
            type="file"
            accept="image/*"
            className={styles.file}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${errorId} ${inputId}-hint`}
            {...register('avatar', { validate: chosenFileProblem, onChange: () => clearErrors('root') })}
          />
          <label htmlFor={inputId} className={controls.secondary}>
            Choose an image
          </label>
          <span className={styles.fileName}>{chosen ? chosen.name : 'No file chosen'}</span>
        </div>
        <p id={`${inputId}-hint`} className={styles.hint}>
          JPEG, PNG, WebP or another image, up to 5 MB. It is cropped to a square.
        </p>
        <p id={errorId} className={controls.error} role="alert">
          {problem}
        </p>
        <div className={controls.actions}>
          <button type="button" className={controls.secondary} onClick={onClose} disabled={formState.isSubmitting}>
            Cancel
          </button>
          <button type="submit" className={controls.primary} disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Uploading…' : 'Upload photo'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
