import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';

import { MainLayout } from '../layouts/MainLayout';
// Eager: an unknown path shows the not-found page at once, without another download.
import NotFound from '../pages/NotFound';
import { routes, type RouteName } from '../routes';
import { HomeOrLanding, RequireAuth } from './guards';

type Page = ComponentType | LazyExoticComponent<ComponentType>;

const Home = lazy(() => import('../pages/Home'));
const Landing = lazy(() => import('../pages/Landing'));

/** `/co-parent/accept` without its token goes home (spec section 1). */
function ToHome() {
  return <Navigate to={routes.home} replace />;
}

/** `/` shows the landing page to visitors and the home screen to a signed-in user. */
function Root() {
  return <HomeOrLanding home={<Home />} landing={<Landing />} />;
}

/**
 * Every route in routes.json has exactly one page and says whether it needs a signed-in user;
 * the type system checks none is missing.
 */
const pages: Record<RouteName, { page: Page; owner?: true }> = {
  home: { page: Root },
  about: { page: lazy(() => import('../pages/About')) },
  privacy: { page: lazy(() => import('../pages/Privacy')) },
  terms: { page: lazy(() => import('../pages/Terms')) },
  contact: { page: lazy(() => import('../pages/Contact')) },
  login: { page: lazy(() => import('../pages/Login')) },
  signup: { page: lazy(() => import('../pages/Signup')) },
  guest: { page: lazy(() => import('../pages/Guest')) },
  forgotPassword: { page: lazy(() => import('../pages/ForgotPassword')) },
  resetPassword: { page: lazy(() => import('../pages/ResetPassword')) },
  join: { page: lazy(() => import('../pages/Join')) },
  dashboard: { page: Home, owner: true },
  profile: { page: lazy(() => import('../pages/Profile')), owner: true },
  children: { page: lazy(() => import('../pages/Children')), owner: true },
  childFoods: { page: lazy(() => import('../pages/FoodHistory')), owner: true },
  mealTracker: { page: lazy(() => import('../pages/MealTracker')), owner: true },
  // Public: visitors may generate recipes (spec section 6); saving asks them to sign in.
  recipes: { page: lazy(() => import('../pages/Recipes')) },
  recipe: { page: lazy(() => import('../pages/RecipeView')), owner: true },
  groceryList: { page: lazy(() => import('../pages/GroceryLists')), owner: true },
  groceryPrint: { page: lazy(() => import('../pages/GroceryPrint')), owner: true },
  mealPlan: { page: lazy(() => import('../pages/MealPlan')), owner: true },
  coParent: { page: lazy(() => import('../pages/CoParents')), owner: true },
  // A co-parent has no account: the link and a PIN are the key (the server checks both).
  coParentAcceptBare: { page: ToHome },
  coParentAccept: { page: lazy(() => import('../pages/CoParentAccept')) },
  coParentDashboard: { page: lazy(() => import('../pages/CoParentDashboard')) },
  coParentDashboardBare: {
    page: lazy(() =>
      import('../pages/CoParentDashboard').then((m) => ({
        default: m.CoParentDashboardWithoutToken,
      })),
    ),
  },
};

export function AppRouter() {
  return (
    <Routes>
      <Route element={<MainLayout />}>
        {(Object.keys(pages) as RouteName[]).map((name) => {
          const { page: Page, owner } = pages[name];
          const element = owner ? (
            <RequireAuth>
              <Page />
            </RequireAuth>
          ) : (
            <Page />
          );
          return <Route key={name} path={routes[name]} element={element} />;
        })}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
