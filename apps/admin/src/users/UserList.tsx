import type { components } from '@shop/api-client';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Box, Button, Chip, MenuItem, TextField, Typography } from '@mui/material';
import { ROLES } from '@shop/shared';
import { useState } from 'react';
import {
  Datagrid,
  DeleteWithConfirmButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TopToolbar,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { adminApi, type Role } from '../shopApi';
import { UserCreateDialog } from './UserCreate';
import { userLines } from './userLines';
import { ShopDateField } from '../ShopDateField';
import { ExportCsvButton } from '../reports/ExportCsvButton';

/** A record as GET /api/admin/users answers it (generated from openapi.yaml). */
type UserRecord = RaRecord & components['schemas']['AdminUserRecordDto'];

function RoleSelect({ user }: { user: UserRecord }) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const change = async (role: Role) => {
    try {
      await adminApi.setUserRole(String(user.id), role);
      notify('shop.admin.users.roleUpdated', { type: 'success' });
    } catch (error) {
      notifyError(error, 'shop.admin.users.roleFailed');
    }
    refresh();
  };
  return (
    <TextField
      select
      size="small"
      variant="outlined"
      value={user.role}
      onChange={(e) => change(e.target.value as Role)}
      slotProps={{ htmlInput: { 'aria-label': t('shop.admin.users.role'), 'data-testid': 'role-select' } }}
    >
      {ROLES.map((r) => (
        <MenuItem key={r} value={r}>
          {t(`shop.admin.users.roles.${r}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ActiveToggle({ user }: { user: UserRecord }) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const toggle = async () => {
    try {
      await adminApi.setUserActive(String(user.id), !user.isActive);
      notify('shop.admin.users.statusUpdated', { type: 'success' });
    } catch (error) {
      notifyError(error, 'shop.admin.users.statusFailed');
    }
    refresh();
  };
  return (
    <Button size="small" color={user.isActive ? 'warning' : 'success'} onClick={toggle}>
      {t(user.isActive ? 'shop.admin.users.deactivate' : 'shop.admin.users.activate')}
    </Button>
  );
}

export function UserList() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const [adding, setAdding] = useState(false);
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={t('shop.admin.users.search')} />,
    <SelectInput
      key="role"
      source="role"
      label="shop.admin.users.role"
      alwaysOn
      emptyText="shop.admin.users.allRoles"
      choices={ROLES.map((r) => ({ id: r, name: t(`shop.admin.users.roles.${r}`) }))}
    />,
  ];
  return (
    <>
      <List
        title={t('shop.admin.users.title')}
        filters={filters}
        sort={{ field: 'createdAt', order: 'DESC' }}
        queryOptions={{ onError: (error: unknown) => notifyError(error, 'shop.admin.users.fetchFailed') }}
        actions={
          <TopToolbar>
            <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAdding(true)}>
              {t('shop.admin.users.add')}
            </Button>
            <ExportCsvButton resource="users" />
          </TopToolbar>
        }
        exporter={false}
      >
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <FunctionField
            label="shop.admin.users.user"
            sortBy="name"
            render={(u: UserRecord) => {
              const { title, lines } = userLines(u);
              return (
                <Box data-testid="user-identity">
                  <Typography variant="body2" sx={{ fontWeight: 700 }}>
                    {title || '—'}
                  </Typography>
                  {lines.map((line) => (
                    <Typography key={line.key} variant="caption" color="text.secondary" component="div">
                      {line.key === 'noEmail' ? t('shop.admin.users.noEmail') : line.text}
                    </Typography>
                  ))}
                </Box>
              );
            }}
          />
          <FunctionField
            label="shop.admin.users.role"
            sortBy="role"
            render={(u: UserRecord) => <RoleSelect user={u} />}
          />
          <FunctionField
            label="shop.admin.users.status"
            sortBy="isActive"
            render={(u: UserRecord) => (
              <Chip
                size="small"
                data-testid="user-active"
                color={u.isActive ? 'success' : 'default'}
                label={t(u.isActive ? 'shop.admin.users.active' : 'shop.admin.users.inactive')}
              />
            )}
          />
          <ShopDateField source="createdAt" label="shop.admin.users.joined" sortBy="createdAt" />
          <FunctionField
            label="shop.admin.common.actions"
            render={(u: UserRecord) => (
              <Box sx={{ display: 'flex', gap: 1 }}>
                <ActiveToggle user={u} />
                <DeleteWithConfirmButton
                  record={u}
                  redirect={false}
                  mutationMode="pessimistic"
                  confirmTitle={t('shop.admin.users.deleteTitle', { name: userLines(u).title })}
                  confirmContent={t('shop.admin.users.deleteConfirm')}
                  mutationOptions={{
                    onSuccess: () => {
                      notify('shop.admin.users.deleted', { type: 'success' });
                      refresh();
                    },
                    onError: (error: unknown) => notifyError(error, 'shop.admin.users.deleteFailed'),
                  }}
                />
              </Box>
            )}
          />
        </Datagrid>
      </List>
      {adding && <UserCreateDialog onClose={() => setAdding(false)} />}
    </>
  );
}
