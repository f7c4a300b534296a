import { createSvgIcon } from '@mui/material';
import { Logout, Menu as RaMenu, useResourceDefinitions, useTranslate } from 'react-admin';
import { isLocalStore } from '../outbox/localStore';
import { LocalStoreMenuItem } from '../outbox/LocalStoreMenuItem';

/**
 * Material's Settings icon, drawn here: the icons package's own module shares a chunk with react-admin's
 * title preferences and the form fields they bring, which the dashboard does not need
 * (docs/decisions/0088-back-office-within-budget.md).
 */
const SettingsIcon = createSvgIcon(
  <path d="M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58c.18-.14.23-.41.12-.61l-1.92-3.32c-.12-.22-.37-.29-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54c-.04-.24-.24-.41-.48-.41h-3.84c-.24 0-.43.17-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96c-.22-.08-.47 0-.59.22L2.74 8.87c-.12.21-.08.47.12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58c-.18.14-.23.41-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96c.22.08.47 0 .59-.22l1.92-3.32c.12-.22.07-.47-.12-.61zM12 15.6c-1.98 0-3.6-1.62-3.6-3.6s1.62-3.6 3.6-3.6 3.6 1.62 3.6 3.6-1.62 3.6-3.6 3.6" />,
  'Settings',
);

/** The side menu: dashboard, every resource (local mail and SMS only where the API offers them), settings and sign-out. */
export function Menu() {
  const t = useTranslate();
  const resources = useResourceDefinitions();
  return (
    <RaMenu>
      <RaMenu.DashboardItem />
      {Object.keys(resources)
        .filter((name) => resources[name].hasList)
        .map((name) =>
          isLocalStore(name) ? (
            <LocalStoreMenuItem key={name} name={name} />
          ) : (
            <RaMenu.ResourceItem key={name} name={name} />
          ),
        )}
      <RaMenu.Item to="/settings" primaryText={t('shop.admin.menu.settings')} leftIcon={<SettingsIcon />} />
      <Logout />
    </RaMenu>
  );
}
