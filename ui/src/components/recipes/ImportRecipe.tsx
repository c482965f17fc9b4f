import { Link2, ClipboardPaste, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

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
  /** Whether pasting the page is the way on ("Paste the recipe instead"). */
  offerPaste?: boolean;
}

/** The largest paste or file read (the server reads at most 5 MB of page). */
const PASTE_MAX = 5 * 1024 * 1024;

/**
 * Import a recipe: from its web address (the server fetches the page) or by pasting the page,
 * the recipe's text or a Highchair export. The drafts open for editing, with what they mean
 * for each child, before anything is saved.
 */
export function ImportRecipe({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
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
        title: t('recipes.errors.importing'),
        message: t('recipes.import.urlRequired'),
      });
      return;
    }
    if (way === 'paste' && !text) {
      setProblem({
        title: t('recipes.errors.importing'),
        message: t('recipes.import.pasteRequired'),
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
      // A page the server could not fetch or read can still be pasted; a malformed address
      // ('Error importing recipe', whatever the language) is the parent's to correct.
      if (err instanceof ApiFailure)
        setProblem({
          title: err.title,
          message: err.message,
          offerPaste: err.code !== 'Error importing recipe',
        });
      else
        setProblem({ title: t('recipes.errors.importing'), message: t('common.unexpectedError') });
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
        title: t('recipes.import.savedWithoutPicture'),
        description: t('recipes.import.pictureNotFetched'),
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
      toast({ variant: 'success', title: t('recipes.import.savedAll', { count: drafts.length }) });
      onDone();
    } catch (err) {
      setDrafts(left);
      fail(err, t('recipes.errors.saving'));
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
            toast({ variant: 'success', title: t('recipes.savedSuccessfully') });
            const rest = drafts.filter((_, k) => k !== editing);
            if (rest.length === 0) onDone();
            setDrafts(rest);
            setEditing(null);
            return undefined;
          } catch (err) {
            return fail(err, t('recipes.errors.saving'));
          }
        }}
      >
        <DraftChecks draft={draft} />
        {draft.allergyWarnings.length + draft.safetyNotes.length > 0 ? (
          <p className="text-sm text-base-content/70">{t('recipes.import.checkedAsImported')}</p>
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
        <p>{t('recipes.import.found', { count: drafts.length })}</p>
        <ul className="space-y-2" aria-label={t('recipes.import.foundList')}>
          {drafts.map((d, k) => (
            <li key={`${d.title}-${k}`} className="rounded-box border border-base-300 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-semibold wrap-anywhere">
                  {d.title || t('recipes.import.untitled')}
                </span>
                <Button variant="outline" size="sm" onClick={() => setEditing(k)}>
                  {t('recipes.import.editAndSave')}
                </Button>
              </div>
              <DraftChecks draft={d} />
            </li>
          ))}
        </ul>
        <FormActions layout="modal" onCancel={onDone} busy={busy}>
          {t('recipes.import.saveAll')}
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
      <div role="tablist" aria-label={t('recipes.import.how')} className="tabs tabs-box w-fit">
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
          <Link2 aria-hidden size={16} className="mr-1" /> {t('recipes.import.fromUrl')}
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
          <ClipboardPaste aria-hidden size={16} className="mr-1" /> {t('recipes.import.paste')}
        </button>
      </div>
      {way === 'url' ? (
        <Input
          label={t('recipes.import.url')}
          type="url"
          inputMode="url"
          // eslint-disable-next-line i18next/no-literal-string -- the start of an address, in every language
          placeholder="https://"
          value={url}
          maxLength={2000}
          onChange={(e) => setUrl(e.target.value)}
        />
      ) : (
        <>
          <TextArea
            label={t('recipes.import.pasteLabel')}
            hint={t('recipes.import.pasteHint')}
            className="h-48"
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
          />
          <label className="block text-sm">
            <span className="mb-1 block">{t('recipes.import.chooseFile')}</span>
            <input
              type="file"
              accept=".json,.jsonld,.html,.htm,.txt"
              className="file-input file-input-bordered w-full"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                if (file.size > PASTE_MAX) {
                  setProblem({
                    title: t('recipes.import.tooLargeTitle'),
                    message: t('recipes.import.tooLargeMessage'),
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
            {way === 'url' && problem.offerPaste ? (
              <Button
                variant="outline"
                size="sm"
                className="mt-2"
                onClick={() => {
                  setWay('paste');
                  setProblem(null);
                }}
              >
                {t('recipes.import.pasteInstead')}
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      <FormActions layout="modal" onCancel={onDone} busy={busy}>
        {t('recipes.import.submit')}
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
