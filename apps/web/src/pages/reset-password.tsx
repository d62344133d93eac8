import { DialogOverHome } from '../app/dialog-route.tsx';

export default function Page() {
  return <DialogOverHome view="reset-password" />;
}
