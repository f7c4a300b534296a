import SettingsIcon from '@mui/icons-material/Settings';
import { Logout, Menu as RaMenu, useTranslate } from 'react-admin';

/** The side menu: dashboard, every resource, settings and sign-out. */
export function Menu() {
  const t = useTranslate();
  return (
    <RaMenu>
      <RaMenu.DashboardItem />
      <RaMenu.ResourceItems />
      <RaMenu.Item to="/settings" primaryText={t('shop.admin.menu.settings')} leftIcon={<SettingsIcon />} />
      <Logout />
    </RaMenu>
  );
}
