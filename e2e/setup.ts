import { afterAll, afterEach } from 'vitest';
import { takeBrowserErrors } from './browser-errors.ts';

// Every browser test fails on an error in the page, even when its own steps passed: an uncaught
// error is a fault the user meets, whatever the screen shows.
function expectNoBrowserErrors(when: string): void {
  const errors = takeBrowserErrors();
  if (errors.length === 0) return;
  throw new Error(
    `The browser reported ${errors.length} error(s) ${when}:\n${errors.map((e) => `- ${e}`).join('\n')}`,
  );
}

afterEach(() => expectNoBrowserErrors('during this test'));
afterAll(() => expectNoBrowserErrors('after the last test'));
