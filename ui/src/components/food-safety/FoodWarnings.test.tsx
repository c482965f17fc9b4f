import { render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';

import fr from '../../locales/fr.json';
import type { FoodCheck } from '../../hooks/useFoodCheck';
import { FoodWarnings } from './FoodWarnings';

const check: FoodCheck = {
  childId: 'c1',
  childName: 'Leo',
  age: '9 mois',
  warnings: [
    {
      kind: 'choking',
      food: 'raisins',
      message: 'Les aliments ronds peuvent bloquer les voies respiratoires.',
      advice: 'Coupez-les en quatre dans la longueur.',
      source: {
        publisher: 'NHS',
        title: 'Foods to avoid giving babies and young children',
        url: 'https://www.nhs.uk/',
      },
      prepared: false,
      note: 'raisins : couper en quatre dans la longueur',
    },
  ],
};

describe('FoodWarnings', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('links each warning to its source, said to be in English in another language', async () => {
    const english = render(<FoodWarnings check={check} />);
    const link = screen.getByRole('link', { name: /Foods to avoid giving babies/ });
    expect(link).toHaveAttribute('hreflang', 'en');
    expect(link.parentElement).not.toHaveTextContent('(in English)');
    english.unmount();

    i18n.addResourceBundle('fr', 'translation', fr);
    await i18n.changeLanguage('fr');
    render(<FoodWarnings check={check} />);
    expect(screen.getByText(/\(en anglais\)/)).toBeInTheDocument();
  });
});
