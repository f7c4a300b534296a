import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadFonts } from './fonts';
import { initialLocale } from './i18nProvider';

// the first screen is drawn once its fonts (Ethiopic ones in Amharic) are there, or after FONT_WAIT_MS
void loadFonts(initialLocale()).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
