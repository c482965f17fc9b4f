import './index.css';

import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { AuthProvider, preloadSession } from './auth/AuthProvider';
import { ToastProvider } from './components/ui/Toast';
import { AppRouter, preloadPage, preloadPageReads } from './router/AppRouter';

// The service worker (vite-plugin-pwa) makes the app installable and usable offline. Browsers
// allow one only on https or localhost; on a plain-http LAN address the app simply stays online.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((err: unknown) => {
      console.warn('Offline use is not available', err);
    });
  });
}

/**
 * Starts downloading the page's code once the first screen (header and spinner) is painted:
 * started earlier, it would hold that paint back.
 */
function PreloadPage() {
  useEffect(() => {
    const frame = requestAnimationFrame(() =>
      setTimeout(() => preloadPage(window.location.pathname)),
    );
    return () => cancelAnimationFrame(frame);
  }, []);
  return null;
}

const root = document.getElementById('root');
if (root) {
  // The screen's first reads start with the session: before the screen can ask for them (it
  // waits for the session), so it finds them on their way.
  preloadSession()
    .then((session) => {
      if (session) preloadPageReads(window.location.pathname, window.location.search);
    })
    .catch(() => undefined);
  const app = createRoot(root);
  // A transition: React renders the first screen in small steps, so a slow phone can still
  // answer a tap meanwhile (Lighthouse's blocking time).
  startTransition(() =>
    app.render(
      <StrictMode>
        <PreloadPage />
        <SWRConfig value={{ shouldRetryOnError: false }}>
          <ToastProvider>
            <AuthProvider>
              <BrowserRouter>
                <AppRouter />
              </BrowserRouter>
            </AuthProvider>
          </ToastProvider>
        </SWRConfig>
      </StrictMode>,
    ),
  );
}
