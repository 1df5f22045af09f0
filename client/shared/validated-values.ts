import type { FormInstance } from 'antd';

/** antd's rejection when a field changed while the rules ran: nothing failed, it is stale. */
function isOutOfDate(error: unknown): boolean {
  const failure = error as { outOfDate?: unknown; errorFields?: unknown[] } | null;
  return failure?.outOfDate === true && (failure.errorFields?.length ?? 0) === 0;
}

/**
 * The form's values once its rules pass, or null when one fails. antd rejects with the failed
 * fields, which it already shows under each field: a failed rule is no error of the program, and
 * must not reach the browser as an unhandled rejection. A check overtaken by a change of a field
 * (a fill or an autofill just before the click) shows nothing: it is run again rather than
 * losing the click without a word.
 */
export async function validatedValues<V>(form: FormInstance<V>): Promise<V | null> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await form.validateFields();
    } catch (error) {
      if (!isOutOfDate(error)) return null;
    }
  }
  return null;
}
