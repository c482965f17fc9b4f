import { Languages } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { User } from '../../auth/auth-context';
import { useProfileActions } from '../../hooks/useProfile';
import { useSubmit } from '../../hooks/useSubmit';
import { LANGUAGES, chooseLanguage, followBrowser, isLanguage, type Language } from '../../i18n';
import { Select } from '../ui/Input';

/**
 * The language of the screens, kept with the account: this parent sees it on every device,
 * and the other parent keeps their own. "Automatic" follows the browser. Each language is
 * named in itself, so a parent who cannot read the current one still finds theirs.
 */
export function LanguageChoice({ user }: { user: User }) {
  const { t } = useTranslation();
  const { update } = useProfileActions();
  const [shown, setShown] = useState<Language | ''>(user.language ?? '');
  // The choice being saved: `run` may start before the state above is rendered.
  const wanted = useRef<Language | ''>(shown);
  const save = useSubmit(
    (signal) => update({ language: wanted.current, version: user.version }, signal),
    { failureTitle: t('profile.errors.update') },
  );

  const pick = (value: string) => {
    const language = isLanguage(value) ? value : '';
    wanted.current = language;
    setShown(language);
    void (language ? chooseLanguage(language) : followBrowser());
    void save.run();
  };

  return (
    <section className="card mt-6 border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <h2 className="card-title text-xl">
          <Languages aria-hidden size={20} /> {t('profile.language.title')}
        </h2>
        <Select
          label={t('profile.language.label')}
          hint={t('profile.language.hint')}
          error={save.fieldErrors.language}
          value={shown}
          disabled={save.busy}
          onChange={(e) => pick(e.target.value)}
        >
          <option value="">{t('profile.language.automatic')}</option>
          {Object.entries(LANGUAGES).map(([code, { name }]) => (
            <option key={code} value={code} lang={code}>
              {name}
            </option>
          ))}
        </Select>
      </div>
    </section>
  );
}
