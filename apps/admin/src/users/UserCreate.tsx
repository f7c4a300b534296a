import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import { ROLES } from '@shop/shared';
import {
  email,
  Form,
  PasswordInput,
  required,
  SaveButton,
  SelectInput,
  TextInput,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { apiFieldErrors, useNotifyApiError } from '../apiErrors';
import { strongPassword } from '../passwordRule';
import { adminApi, type Role } from '../shopApi';

/** 'Add User': name, email, password and role, created through POST /api/admin/users. */
export function UserCreateDialog({ onClose }: { onClose: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const submit = async (values: Record<string, unknown>) => {
    try {
      await adminApi.createUser({
        name: String(values.name).trim(),
        email: String(values.email).trim(),
        password: String(values.password),
        role: (values.role as Role) ?? 'customer',
      });
      notify('shop.admin.users.created', { type: 'success' });
      refresh();
      onClose();
    } catch (error) {
      notifyError(error, 'shop.admin.users.createFailed');
      // the API's field errors under their fields (e.g. the email already taken)
      return apiFieldErrors(error, t);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('shop.admin.users.add')}</DialogTitle>
      <DialogContent>
        <Form onSubmit={submit} defaultValues={{ role: 'customer' }}>
          <TextInput source="name" label="shop.admin.users.name" validate={required()} fullWidth />
          <TextInput
            source="email"
            label="shop.admin.users.email"
            type="email"
            validate={[required(), email()]}
            fullWidth
          />
          <PasswordInput
            source="password"
            label="shop.admin.users.password"
            validate={[required(), strongPassword]}
            helperText="shop.admin.users.passwordRule"
            fullWidth
          />
          <SelectInput
            source="role"
            label="shop.admin.users.role"
            choices={ROLES.map((r) => ({ id: r, name: t(`shop.admin.users.roles.${r}`) }))}
            validate={required()}
          />
          <SaveButton label="shop.admin.users.add" alwaysEnable />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
