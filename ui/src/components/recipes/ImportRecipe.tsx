import { Link2, ClipboardPaste, TriangleAlert } from 'lucide-react';
import { useState } from 'react';

import { ApiFailure } from '../../api/client';
import { useFailure } from '../../hooks/useFailure';
import { useRecipeActions, type ImportedRecipe } from '../../hooks/useRecipes';
import { AllergyWarnings } from '../food-safety/AllergyWarnings';
import { SafetyNotes } from '../food-safety/SafetyNotes';
import { Button } from '../ui/Button';
import { FormActions } from '../ui/FormActions';
import { Input, TextArea } from '../ui/Input';
import { useToast } from '../ui/toast-context';
import { RecipeForm } from './RecipeForm';

type Way = 'url' | 'paste';

/** What the server found wrong, in its words. */
interface Problem {
  title: string;
  message: string;
}

/** The largest paste or file read (the server reads at most 5 MB of page). */
const PASTE_MAX = 5 * 1024 * 1024;

/**
 * Import a recipe: from its web address (the server fetches the page) or by pasting the page,
 * the recipe's text or a Highchair export. The drafts open for editing, with what they mean
 * for each child, before anything is saved.
 */
export function ImportRecipe({ onDone }: { onDone: () => void }) {
  const { importRecipes, save } = useRecipeActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [way, setWay] = useState<Way>('url');
  const [url, setUrl] = useState('');
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [drafts, setDrafts] = useState<ImportedRecipe[]>([]);
  const [editing, setEditing] = useState<number | null>(null);

  const read = async () => {
    setProblem(null);
    const text = pasted.trim();
    if (way === 'url' && !url.trim()) {
      setProblem({
        title: 'Error importing recipe',
        message: "Please enter the recipe's web address",
      });
      return;
    }
    if (way === 'paste' && !text) {
      setProblem({
        title: 'Error importing recipe',
        message: 'Please paste the recipe or its page',
      });
      return;
    }
    setBusy(true);
    try {
      // A pasted page keeps the address typed before it (the recipe's source; never fetched).
      const address = /^https?:\/\/\S/i.test(url.trim()) ? url.trim() : undefined;
      const body =
        way === 'url'
          ? { url: url.trim() }
          : text.startsWith('<')
            ? { html: text, url: address }
            : { text, url: address };
      const found = await importRecipes(body);
      setDrafts(found.recipes);
      setEditing(found.recipes.length === 1 ? 0 : null);
    } catch (err) {
      if (err instanceof ApiFailure) setProblem({ title: err.title, message: err.message });
      else setProblem({ title: 'Error importing recipe', message: 'An unexpected error occurred' });
    } finally {
      setBusy(false);
    }
  };

  const keep = async (
    draft: ImportedRecipe,
    content = draft,
    sourceUrl = draft.sourceUrl ?? '',
  ) => {
    const saved = await save(content, 'imported', {
      sourceUrl,
      imageUrl: draft.imageUrl ?? '',
    });
    if (draft.imageUrl && !saved.photoId) {
      toast({
        title: 'Recipe saved without its picture',
        description: "The recipe's picture could not be fetched.",
      });
    }
    return saved;
  };

  const saveAll = async () => {
    setBusy(true);
    let left = drafts;
    try {
      for (const draft of drafts) {
        await keep(draft);
        // Saved ones leave the list, so trying again after a failure saves each once.
        left = left.filter((d) => d !== draft);
      }
      toast({ variant: 'success', title: `${drafts.length} recipes saved 🎉` });
      onDone();
    } catch (err) {
      setDrafts(left);
      fail(err, 'Error saving recipe');
    } finally {
      setBusy(false);
    }
  };

  const draft = editing === null ? undefined : drafts[editing];
  if (draft) {
    return (
      <RecipeForm
        start={{ content: draft, sourceUrl: draft.sourceUrl }}
        onCancel={() => (drafts.length > 1 ? setEditing(null) : onDone())}
        onSave={async (content, sourceUrl) => {
          try {
            await keep(draft, { ...draft, ...content }, sourceUrl);
            toast({ variant: 'success', title: 'Recipe saved successfully! 🎉' });
            const rest = drafts.filter((_, k) => k !== editing);
            if (rest.length === 0) onDone();
            setDrafts(rest);
            setEditing(null);
            return undefined;
          } catch (err) {
            return fail(err, 'Error saving recipe');
          }
        }}
      >
        <DraftChecks draft={draft} />
        {draft.allergyWarnings.length + draft.safetyNotes.length > 0 ? (
          <p className="text-sm text-base-content/70">
            Checked as imported; the saved recipe is checked again with your changes.
          </p>
        ) : null}
      </RecipeForm>
    );
  }

  if (drafts.length > 0) {
    return (
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void saveAll();
        }}
      >
        <p>{drafts.length} recipes were found. Edit one before saving it, or save them all.</p>
        <ul className="space-y-2" aria-label="Recipes found">
          {drafts.map((d, k) => (
            <li key={`${d.title}-${k}`} className="rounded-box border border-base-300 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-semibold wrap-anywhere">{d.title || 'Untitled'}</span>
                <Button variant="outline" size="sm" onClick={() => setEditing(k)}>
                  Edit and save
                </Button>
              </div>
              <DraftChecks draft={d} />
            </li>
          ))}
        </ul>
        <FormActions layout="modal" onCancel={onDone} busy={busy}>
          Save All
        </FormActions>
      </form>
    );
  }

  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void read();
      }}
    >
      <div role="tablist" aria-label="How to import" className="tabs tabs-box w-fit">
        <button
          type="button"
          role="tab"
          aria-selected={way === 'url'}
          className={`tab ${way === 'url' ? 'tab-active' : 'text-base-content/80'}`}
          onClick={() => {
            setWay('url');
            setProblem(null);
          }}
        >
          <Link2 aria-hidden size={16} className="mr-1" /> From a web address
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={way === 'paste'}
          className={`tab ${way === 'paste' ? 'tab-active' : 'text-base-content/80'}`}
          onClick={() => {
            setWay('paste');
            setProblem(null);
          }}
        >
          <ClipboardPaste aria-hidden size={16} className="mr-1" /> Paste
        </button>
      </div>
      {way === 'url' ? (
        <Input
          label="Recipe's web address"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          maxLength={2000}
          onChange={(e) => setUrl(e.target.value)}
        />
      ) : (
        <>
          <TextArea
            label="The recipe, or its page"
            hint="Paste the recipe's text (title, ingredients, method), the page's HTML or a Highchair export"
            className="h-48"
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
          />
          <label className="block text-sm">
            <span className="mb-1 block">Or choose a file</span>
            <input
              type="file"
              accept=".json,.jsonld,.html,.htm,.txt"
              className="file-input file-input-bordered w-full"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                if (file.size > PASTE_MAX) {
                  setProblem({
                    title: 'Page too large',
                    message: 'The file is larger than 5 MB, so Highchair did not read it.',
                  });
                  return;
                }
                void file.text().then(setPasted);
              }}
            />
          </label>
        </>
      )}
      {problem ? (
        <div role="alert" className="alert alert-error items-start">
          <TriangleAlert aria-hidden className="shrink-0" />
          <div>
            <p className="font-semibold">{problem.title}</p>
            <p>{problem.message}</p>
            {way === 'url' && problem.title !== 'Error importing recipe' ? (
              <Button
                variant="outline"
                size="sm"
                className="mt-2"
                onClick={() => {
                  setWay('paste');
                  setProblem(null);
                }}
              >
                Paste the recipe instead
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      <FormActions layout="modal" onCancel={onDone} busy={busy}>
        Import
      </FormActions>
    </form>
  );
}

/** An imported draft's allergy warnings and each child's notes, as a generated recipe shows them. */
function DraftChecks({ draft }: { draft: ImportedRecipe }) {
  return (
    <div className="mt-2 space-y-2">
      <AllergyWarnings warnings={draft.allergyWarnings} />
      <SafetyNotes notes={draft.safetyNotes} />
    </div>
  );
}
