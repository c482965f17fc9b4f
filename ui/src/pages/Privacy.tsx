import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { POLICY_DATE, Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function Privacy() {
  const { t } = useTranslation();
  return (
    <Prose title={t('privacy.title')} updated={POLICY_DATE}>
      <p>{t('privacy.intro')}</p>
      <h2>{t('privacy.staysHere.title')}</h2>
      <p>{t('privacy.staysHere.text')}</p>
      <h2>{t('privacy.stored.title')}</h2>
      <ul>
        <li>{t('privacy.stored.account')}</li>
        <li>{t('privacy.stored.children')}</li>
        <li>{t('privacy.stored.meals')}</li>
        <li>{t('privacy.stored.recipes')}</li>
        <li>{t('privacy.stored.coParents')}</li>
        <li>{t('privacy.stored.messages')}</li>
      </ul>
      <h2>{t('privacy.photos.title')}</h2>
      <p>{t('privacy.photos.text')}</p>
      <h2>{t('privacy.security.title')}</h2>
      <p>{t('privacy.security.text')}</p>
      <h2>{t('privacy.recipes.title')}</h2>
      <p>{t('privacy.recipes.text')}</p>
      <h2>{t('privacy.retention.title')}</h2>
      <p>{t('privacy.retention.text')}</p>
      <h2>{t('privacy.changes.title')}</h2>
      <p>{t('privacy.changes.text')}</p>
      <h2>{t('privacy.questions.title')}</h2>
      <p>
        <Trans
          i18nKey="privacy.questions.text"
          components={{ contactLink: <Link to={routes.contact} className="link link-primary" /> }}
        />
      </p>
    </Prose>
  );
}
