import { describe, expect, it } from 'vitest';
import { AppError, ERROR_NAMES, statusOf, validationError } from './errors.ts';

describe('error catalogue', () => {
  it.each([
    ['DataValidationError', 422],
    ['DuplicateEntryError', 409],
    ['NothingToChangeError', 400],
    ['InvalidEmailOrPasswordError', 400],
    ['SessionExpired', 401],
    ['NotAllowed', 403],
    ['NotFoundError', 404],
    ['SimultaneousSession', 419],
    ['InternalServerError', 500],
  ] as const)('%s answers %i', (name, status) => {
    expect(statusOf(name)).toBe(status);
  });

  it('gives every name a status in the catalogue', () => {
    for (const name of ERROR_NAMES) {
      expect([400, 401, 403, 404, 409, 419, 422, 429, 500, 503]).toContain(statusOf(name));
    }
  });

  it('serialises errName, name, message and property errors', () => {
    const error = validationError([
      { property: 'username', constraints: { required: 'is required' } },
    ]);
    expect(error.toBody()).toEqual({
      errName: 'DataValidationError',
      name: 'DataValidationError',
      message: 'username: is required',
      errors: [{ property: 'username', constraints: { required: 'is required' } }],
    });
    expect(new AppError('NotFoundError').status).toBe(404);
  });
});
