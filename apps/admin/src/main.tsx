import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// self-hosted Ethiopic font (as the storefront does): Amharic renders without an Ethiopic system font
import '@fontsource/noto-sans-ethiopic/400.css';
import '@fontsource/noto-sans-ethiopic/500.css';
import '@fontsource/noto-sans-ethiopic/700.css';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
