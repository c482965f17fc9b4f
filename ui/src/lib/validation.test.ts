import { describe, expect, it } from 'vitest';

import { isValidEmail, validateContact } from './validation';

describe('isValidEmail', () => {
  it('accepts ordinary addresses', () => {
    expect(isValidEmail('mum@example.org')).toBe(true);
    expect(isValidEmail(' first.last+meals@sub.example.co.uk ')).toBe(true);
  });

  it('refuses what the server refuses', () => {
    for (const bad of [
      '',
      'plain',
      '@example.org',
      'mum@',
      'mum@localhost',
      'mum@example.1',
      'mu..m@x.org',
      'a b@x.org',
    ]) {
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
      'Message must be 1000 characters or less',
    );
    expect(validateContact({ ...ok, name: 'n'.repeat(101) }).name).toBe(
      'Name must be 100 characters or less',
    );
  });

  it('accepts values exactly at the limits', () => {
    expect(validateContact({ name: 'Al', email: 'a@b.io', message: '0123456789' })).toEqual({});
  });
});

import {
  checkGuest,
  checkLogin,
  checkSignup,
  guestChildren,
  guestChildrenError,
} from './validation';

describe('account checks', () => {
  const signup = {
    firstName: 'Amira',
    lastName: 'Khan',
    email: 'a@example.org',
    password: 'correct horse',
    acceptTerms: true,
  };

  it('login needs both fields', () => {
    expect(checkLogin('', 'x')).toEqual({
      title: 'Missing information',
      message: 'Please enter both email and password',
    });
    expect(checkLogin('a@b.io', 'pw')).toBeNull();
  });

  it('signup follows the spec order and texts', () => {
    expect(checkSignup({ ...signup, lastName: ' ' })).toMatchObject({
      message: 'Please fill in all required fields',
      field: 'lastName',
    });
    expect(checkSignup({ ...signup, email: 'nope' })).toMatchObject({
      title: 'Invalid email',
      field: 'email',
    });
    expect(checkSignup({ ...signup, password: 'seven77' })).toMatchObject({
      title: 'Password too short',
      message: 'Password must be at least 8 characters',
    });
    expect(checkSignup({ ...signup, acceptTerms: false })).toMatchObject({
      title: 'Terms not accepted',
      message: 'You must agree to the Terms of Service and Privacy Policy',
    });
    expect(checkSignup(signup)).toBeNull();
  });

  it('guest children fall back to 1 and stay within 1 to 10', () => {
    expect(guestChildren('')).toBe(1);
    expect(guestChildren('lots')).toBe(1);
    expect(guestChildren('3')).toBe(3);
    expect(guestChildren('12')).toBe(10);
    expect(guestChildren('0')).toBe(1);
    // More than 10 is said, not cut silently.
    expect(guestChildrenError('12')).toBe('You can add at most 10 children as a guest.');
    expect(guestChildrenError('10')).toBeNull();
    expect(guestChildrenError('lots')).toBeNull();
    expect(checkGuest(' ')).toMatchObject({
      title: 'Name required',
      message: 'Please enter your first name',
    });
  });
});
