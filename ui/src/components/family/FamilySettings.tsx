import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { savedElsewhere } from '../../api/client';
import {
  useFamilyActions,
  useFamilySettings,
  type AllergenList,
  type FamilySettings as Settings,
} from '../../hooks/useFamily';
import { useSubmit } from '../../hooks/useSubmit';
import { Button } from '../ui/Button';
import { useToast } from '../ui/toast-context';

const CARD = 'card mt-6 border border-base-300 bg-base-100';

/**
 * The profile page's settings card: choices every parent of the family shares. For now the
 * allergen list a baby's or toddler's introduction page follows (the UK and EU's 14, or the US 9).
 */
export function FamilySettings() {
  const { t } = useTranslation();
  const { data: settings, error } = useFamilySettings();
  if (error) {
    return (
      <div className={CARD}>
        <p className="card-body text-error">{t('family.errors.fetchSettings')}</p>
      </div>
    );
  }
  if (!settings) {
    return (
      <div className={CARD} aria-busy="true">
        <div className="card-body gap-3">
          <div className="skeleton h-6 w-40" />
          <div className="skeleton h-20 w-full" />
        </div>
      </div>
    );
  }
  return <SettingsForm settings={settings} />;
}

function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const actions = useFamilyActions();
  const { toast } = useToast();
  // The list chosen here and not saved yet; null shows the saved one.
  const [choice, setChoice] = useState<AllergenList | null>(null);
  const selected = choice ?? settings.allergenList;

  const save = useSubmit(
    (signal) => actions.saveSettings({ version: settings.version, allergenList: selected }, signal),
    {
      failureTitle: t('family.errors.saveSettings'),
      onSuccess: () => {
        setChoice(null);
        toast({ variant: 'success', title: t('family.settings.saved') });
      },
      onFailure: (err) => {
        // Changed by the other parent first: their choice is shown, and the toast says so.
        if (savedElsewhere(err, 'familySettings')) {
          setChoice(null);
          void actions.reloadSettings();
        }
        return false;
      },
    },
  );

  return (
    <section className={CARD} aria-labelledby="family-settings-title">
      <form className="card-body gap-4" onSubmit={save.onSubmit}>
        <div>
          <h2 id="family-settings-title" className="card-title">
            {t('family.settings.title')}
          </h2>
          <p className="text-sm text-base-content/70">{t('family.settings.intro')}</p>
        </div>
        <fieldset className="space-y-2">
          <legend className="font-medium">{t('family.settings.allergenList')}</legend>
          <p className="text-sm text-base-content/70">{t('family.settings.allergenListText')}</p>
          {settings.allergenLists.map((list) => (
            <label
              key={list.id}
              className="flex cursor-pointer items-start gap-3 rounded-box border border-base-300 p-3"
            >
              <input
                type="radio"
                name="allergenList"
                className="radio radio-primary mt-0.5"
                value={list.id}
                checked={selected === list.id}
                onChange={() => setChoice(list.id)}
              />
              <span className="min-w-0">
                <span className="block font-medium">{list.title}</span>
                <span className="block text-sm text-base-content/70">
                  {list.allergens.join(', ')}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="card-actions justify-end">
          <Button
            type="submit"
            busy={save.busy}
            busyLabel={t('family.settings.saving')}
            disabled={selected === settings.allergenList}
          >
            {t('family.settings.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
