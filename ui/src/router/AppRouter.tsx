import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';

import { MainLayout } from '../layouts/MainLayout';
import Landing from '../pages/Landing';
import NotFound from '../pages/NotFound';
import { routes, type RouteName } from '../routes';

type Page = ComponentType | LazyExoticComponent<ComponentType>;

/** Every route in routes.json has exactly one page; the type system checks none is missing. */
const pages: Record<RouteName, Page> = {
  home: Landing,
  about: lazy(() => import('../pages/About')),
  privacy: lazy(() => import('../pages/Privacy')),
  terms: lazy(() => import('../pages/Terms')),
  contact: lazy(() => import('../pages/Contact')),
};

export function AppRouter() {
  return (
    <Routes>
      <Route element={<MainLayout />}>
        {(Object.keys(pages) as RouteName[]).map((name) => {
          const Page = pages[name];
          return <Route key={name} path={routes[name]} element={<Page />} />;
        })}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
