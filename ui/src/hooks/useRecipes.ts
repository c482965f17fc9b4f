import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR from 'swr';

import { api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { useRevalidate } from './revalidate';

export type Recipe = Schemas['RecipeDto'];
export type RecipeContent = Schemas['RecipeContentDto'];
export type Job = Schemas['JobDto'];
export type GenerateBody = Schemas['GenerateBody'];
export type Catalogue = Schemas['IngredientCatalogue'];

/** The built-in ingredient catalogue; it never changes while the server runs. */
export function useIngredients() {
  return useSWR(
    keys.ingredients(),
    () => unwrap(api.GET('/ingredients'), 'Error loading ingredients'),
    { revalidateOnFocus: false },
  );
}

/** The family's saved recipes, newest first; nothing is fetched when signed out. */
export function useRecipes(signedIn: boolean) {
  return useSWR(signedIn ? keys.recipes() : null, () =>
    unwrap(api.GET('/recipes'), 'Error loading recipes'),
  );
}

export function useRecipe(id: string) {
  return useSWR(keys.recipe(id), () =>
    unwrap(api.GET('/recipes/{id}', { params: { path: { id } } }), 'Error fetching recipes'),
  );
}

/** Save, delete and log a recipe as a meal; each revalidates what shows it. */
export function useRecipeActions() {
  const revalidate = useRevalidate();
  return {
    save: async (content: RecipeContent, source: 'generated' | 'own') => {
      const saved = await unwrap(
        api.POST('/recipes', { body: { ...content, source } }),
        'Error saving recipe',
      );
      await revalidate(['recipes']);
      return saved;
    },
    remove: async (id: string) => {
      await unwrap(
        api.DELETE('/recipes/{id}', { params: { path: { id } } }),
        'Error deleting recipe',
      );
      await revalidate(['recipes', keys.recipe(id)]);
    },
    logMeal: async (id: string, body: Schemas['LogMealRequest']) => {
      const meal = await unwrap(
        api.POST('/recipes/{id}/log-meal', { params: { path: { id } }, body }),
        'Error saving meal',
      );
      await revalidate(['meals', 'foods']);
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

/**
 * Follows a job's event stream, calling `onJob` with each state until it is done or failed.
 * When the stream breaks (server restart, network), asks once where the job stands and
 * follows again if it still runs. Returns a function that stops following.
 */
function followJob(id: string, onJob: (job: Job | null) => void): () => void {
  let current: EventSource | null = null;
  let stopped = false;
  const open = () => {
    const es = new EventSource(`/api/recipes/jobs/${encodeURIComponent(id)}/events`);
    current = es;
    for (const name of EVENTS) {
      es.addEventListener(name, (e) => {
        const job = JSON.parse((e as MessageEvent<string>).data) as Job;
        if (isFinished(job)) es.close();
        onJob(job);
      });
    }
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED || stopped) return;
      void api.GET('/recipes/jobs/{id}', { params: { path: { id } } }).then(({ data }) => {
        if (stopped) return;
        onJob(data ?? null);
        if (data && !isFinished(data)) open();
      });
    };
  };
  open();
  return () => {
    stopped = true;
    current?.close();
  };
}

/**
 * Starts a generation and follows it: the job's event stream gives its place in the queue and
 * its progress, then the recipes or the error. The job id is kept for the tab, so leaving the
 * page and coming back picks the job up again (it keeps running on the server).
 */
export function useGeneration(onFinished: (job: Job) => void) {
  const [job, setJob] = useState<Job | null>(null);
  const [starting, setStarting] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  const follow = useCallback((id: string) => {
    stop.current?.();
    stop.current = followJob(id, (next) => {
      setJob(next);
      if (!next || isFinished(next)) {
        storeJob(null);
        if (next) finished.current(next);
      }
    });
  }, []);

  // Back on the page with a job still running (or finished while away): show it.
  useEffect(() => {
    const id = storedJob();
    if (id) follow(id);
    return () => stop.current?.();
  }, [follow]);

  const start = async (body: GenerateBody) => {
    setStarting(true);
    setJob(null);
    try {
      const { jobId } = await unwrap(
        api.POST('/recipes/generate', { body }),
        'Error generating recipes',
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
        error: null,
        createdAt: new Date().toISOString(),
      });
      follow(jobId);
    } finally {
      setStarting(false);
    }
  };

  const busy = starting || job?.state === 'queued' || job?.state === 'generating';
  return { job, busy, start };
}
