import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { AuthProvider } from './auth/AuthProvider';
import { ToastProvider } from './components/ui/Toast';
import { AppRouter } from './router/AppRouter';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
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
  );
}
