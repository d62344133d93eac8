import { ProfileIcon } from '../../ui/icons.tsx';
import styles from './avatar.module.css';

interface AvatarProps {
  src: string | null;
  size: number;
  alt: string;
}

/** A round profile photo, or the default icon when there is none. */
export function Avatar({ src, size, alt }: AvatarProps) {
  return (
    <span className={styles.avatar} style={{ width: size, height: size }}>
      {src ? <img src={src} alt={alt} width={size} height={size} className={styles.image} /> : <ProfileIcon />}
    </span>
  );
}
