import { describe, expect, it } from 'vitest';

import { isValidEmail, validateContact } from './validation';

describe('isValidEmail', () => {
  it('accepts ordinary addresses', () => {
    expect(isValidEmail('mum@example.org')).toBe(true);
    expect(isValidEmail(' first.last+meals@sub.example.co.uk ')).toBe(true);
  });

  it('refuses what the server refuses', () => {
    for (const bad of ['', 'plain', '@example.org', 'mum@', 'mum@localhost', 'mum@example.1', 'mu..m@x.org', 'a b@x.org']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
    expect(isValidEmail(`${'a'.repeat(250)}@example.org`)).toBe(false);
  });
});

describe('validateContact', () => {
  const ok = { name: 'Sam', email: 'sam@example.org', message: 'Hello, lovely app!' };

  it('passes a complete message', () => {
    expect(validateContact(ok)).toEqual({});
  });

  it('uses the spec texts', () => {
    expect(validateContact({ name: ' S ', email: 'x', message: 'short' })).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Please enter a valid email address',
      message: 'Message must be at least 10 characters',
    });
    expect(validateContact({ ...ok, message: 'x'.repeat(1001) }).message).toBe(
      'Input must be 1000 characters or less',
    );
    expect(validateContact({ ...ok, name: 'n'.repeat(101) }).name).toBe(
      'Input must be 100 characters or less',
    );
  });

  it('accepts values exactly at the limits', () => {
    expect(validateContact({ name: 'Al', email: 'a@b.io', message: '0123456789' })).toEqual({});
  });
});
