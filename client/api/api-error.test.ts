import { describe, expect, it } from 'vitest';
import { parseErrorBody } from './api-error.ts';

describe('parseErrorBody', () => {
  it('reads the catalogue fields', () => {
    const body = parseErrorBody(
      JSON.stringify({
        errName: 'DataValidationError',
        name: 'DataValidationError',
        message: 'bad',
        errors: [{ property: 'email', constraints: { isEmail: 'email must be an e-mail' } }],
      }),
    );
    expect(body).toMatchObject({ errName: 'DataValidationError', message: 'bad' });
    expect(body.errors).toHaveLength(1);
  });

  it('ignores names outside the catalogue and bodies that are not JSON', () => {
    expect(parseErrorBody('{"errName":"Whatever","message":"m"}').errName).toBeUndefined();
    expect(parseErrorBody('<html>502 Bad Gateway</html>')).toEqual({});
    expect(parseErrorBody('')).toEqual({});
  });
});
