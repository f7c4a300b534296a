import SettingsIcon from '@mui/icons-material/Settings';
import { Logout, Menu as RaMenu, useResourceDefinitions, useTranslate } from 'react-admin';
import { isLocalStore } from '../outbox/localStore';
import { LocalStoreMenuItem } from '../outbox/LocalStoreMenuItem';

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
