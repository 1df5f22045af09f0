import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { describeSaveError, formFieldErrors, unplacedLines } from './form-errors.ts';

const server = (status: number, errName: ApiError['errName'], message: string) =>
  new ApiError('server', status, message, { errName, message });

describe('describeSaveError', () => {
  it('offers a reload on a version conflict', () => {
    expect(describeSaveError(server(409, 'VersionConflictError', 'x')).kind).toBe('conflict');
  });

  it('uses the spec texts for nothing to change', () => {
    expect(describeSaveError(server(400, 'NothingToChangeError', 'x'))).toEqual({
      kind: 'notice',
      title: 'Nothing to change',
      message:
        'No changes have been made from the current values. Please check all fields and try again.',
    });
  });

  it("titles an archived duplicate 'Data Archived' with the advice to restore or change the id", () => {
    const problem = describeSaveError(
      server(
        409,
        'ArchivedEntryError',
        "Data Archived: a equipment with name 'dryer' is archived. Restore it from the archived list, or change the name to create a new one.",
      ),
    );
    expect(problem.title).toBe('Data Archived');
    expect(problem.message).toBe(
      "a equipment with name 'dryer' is archived. Restore the entry from the archived list, or change the id to create a new one.",
    );
  });

  it('sends duplicates and validation errors to the fields', () => {
    expect(describeSaveError(server(409, 'DuplicateEntryError', 'exists')).kind).toBe('fields');
    expect(describeSaveError(server(422, 'DataValidationError', 'bad')).kind).toBe('fields');
  });

  it('adds the server’s reason to the catalogue’s words for a refusal', () => {
    const refused = new ApiError(
      'not-allowed',
      403,
      'Signing the record failed as current user is not allowed',
      { errName: 'NotAllowed', message: 'You may not sign this version: you raised this record' },
    );
    expect(describeSaveError(refused).message).toBe(
      'Signing the record failed as current user is not allowed. You may not sign this version: you raised this record',
    );
    const bare = new ApiError('not-allowed', 403, 'Saving failed as current user is not allowed', {
      errName: 'NotAllowed',
    });
    expect(describeSaveError(bare).message).toBe('Saving failed as current user is not allowed');
  });

  it('shows anything else as it came', () => {
    expect(
      describeSaveError(
        new ApiError('not-allowed', 403, 'Editing failed as current user is not allowed'),
      ),
    ).toMatchObject({
      kind: 'notice',
      message: 'Editing failed as current user is not allowed',
    });
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

describe('unplacedLines', () => {
  it('leads each message no field carries with its property in words', () => {
    const error = new ApiError('server', 422, 'invalid', {
      errName: 'DataValidationError',
      errors: [
        { property: 'products[12].minBatchSize.unit', constraints: { unit: 'a unit is required' } },
        { property: 'dateTimeSettings.timezone', constraints: { custom: 'Not a valid zone' } },
      ],
    });
    expect(unplacedLines(formFieldErrors(error))).toBe(
      'Product 13, unit of minimum batch size: a unit is required\n' +
        'Date time settings, timezone: Not a valid zone',
    );
  });
});
