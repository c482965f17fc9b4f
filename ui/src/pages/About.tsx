import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function About() {
  const { t } = useTranslation();
  return (
    <Prose title={t('about.title')}>
      <p>{t('about.intro')}</p>
      <h2>{t('about.whatItDoes.title')}</h2>
      <ul>
        <li>{t('about.whatItDoes.profiles')}</li>
        <li>{t('about.whatItDoes.meals')}</li>
        <li>{t('about.whatItDoes.recipes')}</li>
        <li>{t('about.whatItDoes.groceries')}</li>
        <li>{t('about.whatItDoes.coParents')}</li>
      </ul>
      <h2>{t('about.ownServer.title')}</h2>
      <p>{t('about.ownServer.text')}</p>
      <h2>{t('about.whoFor.title')}</h2>
      <p>{t('about.whoFor.text')}</p>
      <p>
        <Trans
          i18nKey="about.contact"
          components={{ contactLink: <Link to={routes.contact} className="link link-primary" /> }}
        />
      </p>
    </Prose>
  );
}
