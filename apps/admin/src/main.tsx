import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prepareFirstScreen } from './i18nProvider';

// the first screen is drawn once its fonts (Ethiopic ones in Amharic, or after FONT_WAIT_MS) and its
// language's texts are there
void prepareFirstScreen().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
