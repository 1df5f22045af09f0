import type { FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import { validatedValues } from './validated-values.ts';

/** A form whose checks answer in turn what `answers` says (antd's shapes of a rejection). */
function formAnswering(answers: ({ ok: object } | { fail: object })[]) {
  let calls = 0;
  const form = {
    validateFields: () => {
      const answer = answers[Math.min(calls, answers.length - 1)]!;
      calls += 1;
      return 'ok' in answer ? Promise.resolve(answer.ok) : Promise.reject(answer.fail);
    },
  } as unknown as FormInstance<object>;
  return { form, calls: () => calls };
}

describe('validatedValues', () => {
  it('checks again when a field changed during the check, instead of losing the submit', async () => {
    const { form, calls } = formAnswering([
      { fail: { values: {}, errorFields: [], outOfDate: true } },
      { ok: { password: 'secret' } },
    ]);
    expect(await validatedValues(form)).toEqual({ password: 'secret' });
    expect(calls()).toBe(2);
  });

  it('is null when a rule fails, even out of date, and gives up on a form that keeps changing', async () => {
    const failed = formAnswering([
      {
        fail: {
          values: {},
          errorFields: [{ name: ['meaning'], errors: ['Required'] }],
          outOfDate: true,
        },
      },
    ]);
    expect(await validatedValues(failed.form)).toBeNull();
    expect(failed.calls()).toBe(1);
    const changing = formAnswering([{ fail: { values: {}, errorFields: [], outOfDate: true } }]);
    expect(await validatedValues(changing.form)).toBeNull();
    expect(changing.calls()).toBe(3);
  });
});
