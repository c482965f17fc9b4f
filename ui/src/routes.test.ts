import { describe, expect, it } from 'vitest';

import { pathTo, routes } from './routes';

describe('routes', () => {
  it('fills parameters', () => {
    expect(pathTo('/recipes/:id', { id: 'a b' })).toBe('/recipes/a%20b');
  });

  it('holds the public pages', () => {
    expect(routes).toMatchObject({
      home: '/',
      about: '/about',
      privacy: '/privacy',
      terms: '/terms',
      contact: '/contact',
    });
  });
});
