import { describe, expect, it } from 'vitest';
import {
  keepRedirectForSso,
  readLoginQuery,
  readLoginQueryAfterSso,
  searchWithoutToken,
  signInAgainAddress,
} from './login-query.ts';
import { memoryStorage } from '../session/memory-storage.ts';

describe('readLoginQuery', () => {
  it('reads the token, the SSO flag and the error', () => {
    expect(readLoginQuery('?token=abc&sso=true&error=Nope')).toEqual({
      token: 'abc',
      sso: true,
      error: 'Nope',
      redirect: null,
    });
  });

  it('reads redirect mode only with redirect=true, an internal path and a facility id', () => {
    expect(readLoginQuery('?redirect=true&path=/reports&facilityId=2').redirect).toEqual({
      path: '/reports',
      facilityId: 2,
    });
    expect(readLoginQuery('?redirect=false&path=/reports&facilityId=2').redirect).toBeNull();
    expect(readLoginQuery('?redirect=true&path=/reports').redirect).toBeNull();
    expect(readLoginQuery('?redirect=true&path=/reports&facilityId=x').redirect).toBeNull();
  });

  it.each(['//evil.example/x', 'https://evil.example', '/\\evil.example', 'reports'])(
    'refuses to redirect outside the app: %s',
    (path) => {
      const search = `?redirect=true&path=${encodeURIComponent(path)}&facilityId=1`;
      expect(readLoginQuery(search).redirect).toBeNull();
    },
  );
});

describe('searchWithoutToken', () => {
  it('drops only the token', () => {
    expect(searchWithoutToken('?sso=true&token=abc&error=x')).toBe('?sso=true&error=x');
    expect(searchWithoutToken('?token=abc')).toBe('');
  });
});

describe('signInAgainAddress', () => {
  it('reads back as redirect mode to the same page, query included, and facility', () => {
    const address = signInAgainAddress('/master-data/products?search=a&pageNumber=2', 7);
    expect(readLoginQuery(address.slice(1)).redirect).toEqual({
      path: '/master-data/products?search=a&pageNumber=2',
      facilityId: 7,
    });
  });
});

describe('redirect mode across the SSO round trip', () => {
  globalThis.sessionStorage = memoryStorage().storage;

  it('brings the path and facility back with the token, once', () => {
    keepRedirectForSso({ path: '/master-data/equipments', facilityId: 7 });
    expect(readLoginQueryAfterSso('?sso=true&token=t').redirect).toEqual({
      path: '/master-data/equipments',
      facilityId: 7,
    });
    expect(readLoginQueryAfterSso('?sso=true&token=t').redirect).toBeNull();
  });

  it('leaves a plain visit of the Login screen alone', () => {
    keepRedirectForSso({ path: '/reports', facilityId: 2 });
    expect(readLoginQueryAfterSso('').redirect).toBeNull();
  });
});
