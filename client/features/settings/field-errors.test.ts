import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-error.ts';
import { fieldPath, formFieldErrors } from './field-errors.ts';

describe('fieldPath', () => {
  it.each([
    ['reason', ['reason']],
    ['passwordPolicySettings.minCapital', ['passwordPolicySettings', 'minCapital']],
    ['allowedDomains[1]', ['allowedDomains', 1]],
    ['dateTimeSettings.timezone', ['dateTimeSettings', 'timezone']],
  ])('maps %s onto the form path', (property, path) => {
    expect(fieldPath(property)).toEqual(path);
  });
});

describe('formFieldErrors', () => {
  it('turns a DataValidationError into one entry per field with its messages', () => {
    const error = new ApiError('server', 422, 'invalid', {
      errName: 'DataValidationError',
      errors: [
        { property: 'reason', constraints: { too_small: 'A reason is required' } },
        { property: 'dateTimeSettings.timezone', constraints: { custom: 'Not a valid zone' } },
      ],
    });
    expect(formFieldErrors(error)).toEqual([
      { name: ['reason'], errors: ['A reason is required'] },
      { name: ['dateTimeSettings', 'timezone'], errors: ['Not a valid zone'] },
    ]);
    expect(formFieldErrors(new Error('x'))).toEqual([]);
  });

  it('puts the messages of list items on the list field, numbered from 1', () => {
    const error = new ApiError('server', 422, 'invalid', {
      errName: 'DataValidationError',
      errors: [
        { property: 'allowedDomains[0]', constraints: { regex: 'Enter a domain' } },
        { property: 'allowedDomains[2]', constraints: { regex: 'Enter a domain' } },
      ],
    });
    expect(formFieldErrors(error)).toEqual([
      { name: ['allowedDomains'], errors: ['Item 1: Enter a domain', 'Item 3: Enter a domain'] },
    ]);
  });
});
