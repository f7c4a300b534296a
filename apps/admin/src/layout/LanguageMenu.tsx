import { Menu, MenuItem } from '@mui/material';
import { useLocales, useLocaleState } from 'react-admin';

/** The sign-in screen's language menu (LanguageButton.tsx), in a chunk of its own: fetched when first asked for. */
export default function LanguageMenu({
  anchorEl,
  onClose,
}: {
  anchorEl: HTMLElement | null;
  onClose: () => void;
}) {
  const languages = useLocales();
  const [locale, setLocale] = useLocaleState();
  return (
    <Menu id="language-menu" anchorEl={anchorEl} open={Boolean(anchorEl)} onClose={onClose}>
      {languages.map((language) => (
        <MenuItem
          key={language.locale}
          selected={language.locale === locale}
          onClick={() => {
            setLocale(language.locale);
            onClose();
          }}
        >
          {language.name}
        </MenuItem>
      ))}
    </Menu>
  );
}
