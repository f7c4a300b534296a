import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

if (!window.location.pathname.startsWith('/admin')) window.history.replaceState(null, '', '/admin');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
