import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { POLICY_DATE, Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function Terms() {
  const { t } = useTranslation();
  return (
    <Prose title={t('terms.title')} updated={POLICY_DATE}>
      <p>{t('terms.intro')}</p>
      <h2>{t('terms.service.title')}</h2>
      <p>{t('terms.service.text')}</p>
      <h2>{t('terms.account.title')}</h2>
      <ul>
        <li>{t('terms.account.password')}</li>
        <li>{t('terms.account.links')}</li>
        <li>{t('terms.account.responsible')}</li>
      </ul>
      <h2>{t('terms.allergies.title')}</h2>
      <p>{t('terms.allergies.text')}</p>
      <h2>{t('terms.use.title')}</h2>
      <p>{t('terms.use.text')}</p>
      <h2>{t('terms.warranty.title')}</h2>
      <p>{t('terms.warranty.text')}</p>
      <h2>{t('terms.changes.title')}</h2>
      <p>{t('terms.changes.text')}</p>
      <h2>{t('terms.contact.title')}</h2>
      <p>
        <Trans
          i18nKey="terms.contact.text"
          components={{ contactLink: <Link to={routes.contact} className="link link-primary" /> }}
        />
      </p>
    </Prose>
  );
}
