import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LanguageIcon from '@mui/icons-material/Translate';
import { Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useLocales, useLocaleState } from 'react-admin';

const loadMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(loadMenu);

/**
 * react-admin's LocalesMenuButton as the sign-in screen shows it (the same button), with its menu (MUI's
 * Menu, Popover and Modal) fetched when the pointer or focus reaches the button rather than with the
 * first screen (docs/decisions/0088-back-office-within-budget.md). The app bar keeps react-admin's own.
 */
export function LanguageButton() {
  const languages = useLocales();
  const [locale] = useLocaleState();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(false);
  return (
    <span>
      <Button
        color="inherit"
        variant="text"
        aria-controls="language-menu"
        aria-haspopup="true"
        aria-expanded={anchorEl ? 'true' : undefined}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={(event) => {
          setWanted(true);
          setAnchorEl(event.currentTarget);
        }}
        startIcon={<LanguageIcon />}
        endIcon={<ExpandMoreIcon fontSize="small" />}
      >
        {languages.find((l) => l.locale === locale)?.name ?? ''}
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <LanguageMenu anchorEl={anchorEl} onClose={() => setAnchorEl(null)} />
        </Suspense>
      )}
    </span>
  );
}
