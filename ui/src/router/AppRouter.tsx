import { lazy, startTransition, useEffect, useState, type ComponentType } from 'react';
import { Navigate, Route, Routes, matchPath } from 'react-router-dom';

import { Spinner } from '../components/ui/Spinner';
import { preloadReads as read } from '../hooks/reads';
import { CoParentLayout } from '../layouts/CoParentLayout';
import { MainLayout } from '../layouts/MainLayout';
// Eager: an unknown path shows the not-found page at once, without another download.
import NotFound from '../pages/NotFound';
import { mondayOf, weekOf } from '../lib/week';
import { routes, type RouteName } from '../routes';
import { HomeOrLanding, RequireAuth } from './guards';

/** A page; `load`, where there is one, downloads its code (see preloadPage). */
type Page = ComponentType & { load?: () => Promise<unknown> };

/**
 * A page downloaded when first shown; `load` starts the download sooner (preloadPage). Shown
 * as soon as its code is there, with a spinner meanwhile. Not through `lazy` and Suspense: React
 * holds a suspended screen back for 300 ms (its fallback throttling), which delayed every page
 * and the requests it makes.
 */
function page(
  load: () => Promise<{ default: ComponentType }>,
): ComponentType & { load: () => Promise<unknown> } {
  let loaded: ComponentType | null = null;
  let loading: Promise<unknown> | null = null;
  const download = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  // When the download fails: `lazy` tries again, and fails the way it always did.
  const Retry = lazy(load);
  function Page() {
    const [shown, setShown] = useState<ComponentType | 'failed' | null>(() => loaded);
    useEffect(() => {
      if (shown) return;
      let live = true;
      // A transition: the page's first render is done in small steps (a slow phone still
      // answers a tap meanwhile).
      download().then(
        () => live && startTransition(() => setShown(() => loaded)),
        () => live && setShown('failed'),
      );
      return () => {
        live = false;
      };
    }, [shown]);
    if (shown === 'failed') return <Retry />;
    const Shown = shown;
    return Shown ? <Shown /> : <Spinner fill />;
  }
  Page.load = download;
  return Page;
}

const Home = page(() => import('../pages/Home'));
const Landing = page(() => import('../pages/Landing'));

/** `/co-parent/accept` without its token goes home (spec section 1). */
function ToHome() {
  return <Navigate to={routes.home} replace />;
}

/** `/` shows the landing page to visitors and the home screen to a signed-in user. */
function Root() {
  return <HomeOrLanding home={<Home />} landing={<Landing />} />;
}
// Which of the two shows is known only with the session: the visitors' one is preloaded.
Root.load = Landing.load;

/**
 * Every route in routes.json has exactly one page and says whether it needs a signed-in user;
 * the type system checks none is missing.
 */
/**
 * What a signed-in screen reads first, started with the session (preloadPageReads); each must
 * be read by the screen when it opens (a preloaded read nobody takes would be the answer to a
 * later one).
 */
type Reads = (params: Record<string, string | undefined>, search: URLSearchParams) => void;

const pages: Record<RouteName, { page: Page; owner?: true; coParent?: true; reads?: Reads }> = {
  home: { page: Root },
  about: { page: page(() => import('../pages/About')) },
  privacy: { page: page(() => import('../pages/Privacy')) },
  terms: { page: page(() => import('../pages/Terms')) },
  contact: { page: page(() => import('../pages/Contact')) },
  login: { page: page(() => import('../pages/Login')) },
  signup: { page: page(() => import('../pages/Signup')) },
  guest: { page: page(() => import('../pages/Guest')) },
  forgotPassword: { page: page(() => import('../pages/ForgotPassword')) },
  resetPassword: { page: page(() => import('../pages/ResetPassword')) },
  join: { page: page(() => import('../pages/Join')) },
  dashboard: { page: Home, owner: true },
  profile: { page: page(() => import('../pages/Profile')), owner: true },
  children: { page: page(() => import('../pages/Children')), owner: true },
  childFoods: {
    page: page(() => import('../pages/FoodHistory')),
    owner: true,
    reads: ({ id }) => {
      read.children();
      if (id) read.foods(id);
    },
  },
  childAllergens: { page: page(() => import('../pages/AllergenIntro')), owner: true },
  mealTracker: {
    page: page(() => import('../pages/MealTracker')),
    owner: true,
    reads: () => {
      read.children();
      read.meals();
    },
  },
  // Public: visitors may generate recipes (spec section 6); saving asks them to sign in.
  recipes: { page: page(() => import('../pages/Recipes')) },
  recipe: { page: page(() => import('../pages/RecipeView')), owner: true },
  recipePrint: { page: page(() => import('../pages/RecipePrint')), owner: true },
  groceryList: {
    page: page(() => import('../pages/GroceryLists')),
    owner: true,
    reads: () => {
      read.groceryLists();
      read.recipes();
      read.site();
    },
  },
  groceryPrint: { page: page(() => import('../pages/GroceryPrint')), owner: true },
  mealPlan: {
    page: page(() => import('../pages/MealPlan')),
    owner: true,
    reads: (_, search) => {
      // The week as MealPlan picks it.
      const asked = search.get('week') ?? '';
      read.mealPlan(mondayOf(asked) ? asked : weekOf(new Date()));
      read.recipes();
      read.children();
      read.site();
    },
  },
  coParent: { page: page(() => import('../pages/CoParents')), owner: true },
  // A co-parent has no account: the link and a PIN are the key (the server checks both).
  coParentAcceptBare: { page: ToHome },
  coParentAccept: { page: page(() => import('../pages/CoParentAccept')), coParent: true },
  coParentDashboard: { page: page(() => import('../pages/CoParentDashboard')), coParent: true },
  coParentDashboardBare: {
    coParent: true,
    page: page(() =>
      import('../pages/CoParentDashboard').then((m) => ({
        default: m.CoParentDashboardWithoutToken,
      })),
    ),
  },
};

/**
 * Starts downloading the page at `pathname` at once, while the session is still being checked
 * (a page that needs a signed-in user is shown only after that), instead of one round trip later.
 */
export function preloadPage(pathname: string) {
  const name = (Object.keys(pages) as RouteName[]).find((n) => matchPath(routes[n], pathname));
  if (name) pages[name].page.load?.().catch(() => undefined);
}

/** Starts what the signed-in screen at `pathname` reads first (see Reads). */
export function preloadPageReads(pathname: string, search: string) {
  for (const name of Object.keys(pages) as RouteName[]) {
    const match = matchPath(routes[name], pathname);
    if (match) {
      pages[name].reads?.(match.params, new URLSearchParams(search));
      return;
    }
  }
}

function routesOf(coParent: boolean) {
  return (Object.keys(pages) as RouteName[])
    .filter((name) => Boolean(pages[name].coParent) === coParent)
    .map((name) => {
      const { page: Page, owner } = pages[name];
      const element = owner ? (
        <RequireAuth>
          <Page />
        </RequireAuth>
      ) : (
        <Page />
      );
      return <Route key={name} path={routes[name]} element={element} />;
    });
}

export function AppRouter() {
  return (
    <Routes>
      {/* A co-parent's pages offer nothing of an owner's. */}
      <Route element={<CoParentLayout />}>{routesOf(true)}</Route>
      <Route element={<MainLayout />}>
        {routesOf(false)}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
