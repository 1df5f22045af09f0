import type { FormInstance } from 'antd';

/**
 * The form's values once its rules pass, or null when one fails. antd rejects with the failed
 * fields, which it already shows under each field: a failed rule is no error of the program, and
 * must not reach the browser as an unhandled rejection.
 */
export async function validatedValues<V>(form: FormInstance<V>): Promise<V | null> {
  try {
    return await form.validateFields();
  } catch {
    return null;
  }
}
