import './index.css';

import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { AuthProvider, preloadSession } from './auth/AuthProvider';
import { initI18n } from './i18n';
import { LanguageSync } from './i18n/LanguageSync';
import { ToastProvider } from './components/ui/Toast';
import { AppRouter, preloadPage, preloadPageReads } from './router/AppRouter';

// The service worker (vite-plugin-pwa) makes the app installable and usable offline. Browsers
// allow one only on https or localhost; on a plain-http LAN address the app simply stays online.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => setTimeout(registerWhenIdle, SERVICE_WORKER_DELAY_MS));
}

/**
 * On a first visit the worker downloads and stores every screen's code (about 1 MB). Started
 * at the page's load, that competed with the first screen's reads and rendering on a phone's
 * few cores (Lighthouse on the tracker, food history and plan: runs of 85-97 before, 92-98
 * after). A few seconds later, once the screen has settled, it costs the family nothing.
 * Later visits already have the worker, and registering it again only checks for an update.
 */
const SERVICE_WORKER_DELAY_MS = 3000;

function registerWhenIdle() {
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((err: unknown) => {
      console.warn('Offline use is not available', err);
    });
  };
  if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 5000 });
  else register();
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
  // The language's catalogue comes first (a small chunk, fetched beside the session): a screen
  // drawn before it would flash its keys. Failed (offline with none kept), English is built in
  // as the fallback and the screen still opens.
  const ready = initI18n().catch((err: unknown) => console.warn('Language not loaded', err));
  // A transition: React renders the first screen in small steps, so a slow phone can still
  // answer a tap meanwhile (Lighthouse's blocking time).
  void ready.then(() =>
    startTransition(() =>
      app.render(
        <StrictMode>
          <PreloadPage />
          <SWRConfig value={{ shouldRetryOnError: false }}>
            <ToastProvider>
              <AuthProvider>
                <LanguageSync />
                <BrowserRouter>
                  <AppRouter />
                </BrowserRouter>
              </AuthProvider>
            </ToastProvider>
          </SWRConfig>
        </StrictMode>,
      ),
    ),
  );
}
