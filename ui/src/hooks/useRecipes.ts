import i18n from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR from 'swr';

import { api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { useDebounced } from './useDebounced';
import { readRecipes } from './reads';
import { useRevalidate } from './revalidate';

export type Recipe = Schemas['RecipeDto'];
export type ImportedRecipe = Schemas['ImportedRecipeDto'];
export type ImportBody = Schemas['ImportRequest'];
export type RecipeContent = Schemas['RecipeContentDto'];
export type Job = Schemas['JobDto'];
export type GenerateBody = Schemas['GenerateBody'];
export type Catalogue = Schemas['IngredientCatalogue'];

/** The built-in ingredient catalogue; it never changes while the server runs. */
export function useIngredients() {
  return useSWR(
    keys.ingredients(),
    () => unwrap(api.GET('/ingredients'), i18n.t('recipes.errors.loadingIngredients')),
    { revalidateOnFocus: false },
  );
}

/**
 * The catalogue ingredients that a request with these allergies and restrictions would leave
 * out (signed in: the children's allergies too), by name with the server's reason. Asked
 * again a moment after the parent stops typing.
 */
export function useLeftOut(signedIn: boolean, allergies: string[], restrictions: string[]) {
  const asked = useDebounced(JSON.stringify([allergies, restrictions]), 300);
  const [a, r] = JSON.parse(asked) as [string[], string[]];
  const { data } = useSWR(
    keys.leftOut(signedIn ? 'member' : 'visitor', a.join('\n'), r.join('\n')),
    () =>
      unwrap(
        api.POST('/ingredients/check', { body: { allergies: a, dietaryRestrictions: r } }),
        i18n.t('recipes.errors.loadingIngredients'),
      ),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  return new Map((data?.leftOut ?? []).map((l) => [l.name, l.reason]));
}

/** The family's saved recipes, newest first; nothing is fetched when signed out. */
export function useRecipes(signedIn: boolean) {
  return useSWR(signedIn ? keys.recipes() : null, readRecipes);
}

export function useRecipe(id: string) {
  return useSWR(keys.recipe(id), () =>
    unwrap(
      api.GET('/recipes/{id}', { params: { path: { id } } }),
      i18n.t('recipes.errors.fetching'),
    ),
  );
}

/** Save, delete and log a recipe as a meal; each revalidates what shows it. */
export function useRecipeActions() {
  const revalidate = useRevalidate();
  return {
    /** An imported recipe brings its page's address and picture (fetched once, when saved). */
    save: async (
      content: RecipeContent,
      source: Recipe['source'],
      from: { sourceUrl?: string; imageUrl?: string } = {},
    ) => {
      const saved = await unwrap(
        api.POST('/recipes', {
          body: {
            ...content,
            source,
            sourceUrl: from.sourceUrl ?? '',
            imageUrl: from.imageUrl ?? '',
          },
        }),
        i18n.t('recipes.errors.saving'),
      );
      await revalidate(['recipes']);
      return saved;
    },
    update: async (
      recipe: Recipe,
      content: RecipeContent,
      sourceUrl: string,
      removePhoto = false,
    ) => {
      const saved = await unwrap(
        api.PUT('/recipes/{id}', {
          params: { path: { id: recipe.id } },
          body: { ...content, version: recipe.version, sourceUrl, removePhoto },
        }),
        i18n.t('recipes.errors.saving'),
      );
      await revalidate(['recipes', 'recipe']);
      return saved;
    },
    /** Reads a page, pasted HTML or text into drafts; nothing is saved. */
    importRecipes: (body: ImportBody) =>
      unwrap(api.POST('/recipes/import', { body }), i18n.t('recipes.errors.importing')),
    remove: async (id: string) => {
      await unwrap(
        api.DELETE('/recipes/{id}', { params: { path: { id } } }),
        i18n.t('recipes.errors.deleting'),
      );
      // Not the recipe's own key: its page is being left, and a reload would flash a 404.
      await revalidate(['recipes']);
    },
    logMeal: async (id: string, body: Schemas['LogMealRequest']) => {
      const meal = await unwrap(
        api.POST('/recipes/{id}/log-meal', { params: { path: { id } }, body }),
        i18n.t('recipes.errors.savingMeal'),
      );
      await revalidate(['meals', 'foods', 'allergens']);
      return meal;
    },
  };
}

/** The job being followed survives a reload and coming back to the page. */
const JOB_STORAGE = 'highchair.recipeJob';

function storedJob(): string | null {
  try {
    return sessionStorage.getItem(JOB_STORAGE);
  } catch {
    return null;
  }
}

function storeJob(id: string | null) {
  try {
    if (id) sessionStorage.setItem(JOB_STORAGE, id);
    else sessionStorage.removeItem(JOB_STORAGE);
  } catch {
    // Private mode: the job is simply not resumed after a reload.
  }
}

const EVENTS = ['queued', 'generating', 'done', 'failed'] as const;

const isFinished = (job: Job) => job.state === 'done' || job.state === 'failed';

/** Waits before asking again after the stream broke (the server restarting behind a tunnel). */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Follows a job's event stream, calling `onJob` with each state until it is done or failed.
 * When the stream breaks (server restart, network), asks where the job stands, with growing
 * pauses while the server cannot answer, and follows again if it still runs. `onGone` is
 * called when the server no longer knows the job (expired). Returns a function that stops.
 */
function followJob(id: string, onJob: (job: Job) => void, onGone: () => void): () => void {
  let current: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let failures = 0;
  const open = () => {
    const es = new EventSource(`/api/recipes/jobs/${encodeURIComponent(id)}/events`);
    current = es;
    for (const name of EVENTS) {
      es.addEventListener(name, (e) => {
        failures = 0;
        const job = JSON.parse((e as MessageEvent<string>).data) as Job;
        if (isFinished(job)) es.close();
        onJob(job);
      });
    }
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED || stopped) return;
      void ask();
    };
  };
  const retry = () => {
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    timer = setTimeout(() => void ask(), wait);
  };
  const ask = async () => {
    if (stopped) return;
    try {
      const { data, response } = await api.GET('/recipes/jobs/{id}', {
        params: { path: { id } },
      });
      if (stopped) return;
      if (data) {
        onJob(data);
        if (!isFinished(data)) open();
      } else if (response.status === 404) {
        onGone();
      } else {
        retry();
      }
    } catch {
      retry();
    }
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    current?.close();
  };
}

/**
 * Starts a generation and follows it: the job's event stream gives its place in the queue and
 * its progress, then the recipes or the error. The job id is kept for the tab until the next
 * generation, so leaving the page and coming back shows the job again: still running, or its
 * recipes. `onFinished` is called when a job this page watched comes to its end.
 */
export function useGeneration(onFinished: (job: Job) => void, onGone: () => void) {
  const [job, setJob] = useState<Job | null>(null);
  const [starting, setStarting] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  const handlers = useRef({ onFinished, onGone });
  useEffect(() => {
    handlers.current = { onFinished, onGone };
  });

  const follow = useCallback((id: string, fresh: boolean) => {
    stop.current?.();
    // A job just started, or one seen running, is announced when it ends; coming back to
    // recipes that finished while away is quiet.
    let sawRunning = fresh;
    stop.current = followJob(
      id,
      (next) => {
        setJob(next);
        if (!isFinished(next)) sawRunning = true;
        else if (sawRunning) handlers.current.onFinished(next);
      },
      () => {
        storeJob(null);
        setJob(null);
        handlers.current.onGone();
      },
    );
  }, []);

  useEffect(() => {
    const id = storedJob();
    if (id) follow(id, false);
    return () => stop.current?.();
  }, [follow]);

  const start = async (body: GenerateBody) => {
    setStarting(true);
    setJob(null);
    try {
      const { jobId } = await unwrap(
        api.POST('/recipes/generate', { body }),
        i18n.t('recipes.errors.generating'),
      );
      storeJob(jobId);
      setJob({
        id: jobId,
        state: 'queued',
        position: null,
        progress: 0,
        recipes: [],
        withheld: [],
        notes: [],
        safetyNotes: [],
        error: null,
        createdAt: new Date().toISOString(),
      });
      follow(jobId, true);
    } finally {
      setStarting(false);
    }
  };

  const busy = starting || job?.state === 'queued' || job?.state === 'generating';
  return { job, busy, start };
}
