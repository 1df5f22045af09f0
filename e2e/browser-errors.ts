import type { BrowserContext } from 'playwright-core';

/**
 * What went wrong in the browser during the current test: uncaught errors and rejections, and
 * console errors (which include the responses the browser reports as failed). `e2e/setup.ts`
 * fails the test when any is left after its allowances.
 */
const reported: string[] = [];
let allowances: RegExp[] = [];

export function watchBrowserErrors(context: BrowserContext): void {
  context.on('weberror', (webError) => {
    const error = webError.error();
    reported.push(`uncaught: ${error.stack ?? error.message}`);
  });
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    reported.push(`console error: ${message.text()}${url ? ` (${url})` : ''}`);
  });
}

/**
 * Lets the current test through errors it provokes on purpose and the app handles, such as a
 * refused request the screen shows; each pattern should name the status and the path.
 */
export function allowBrowserErrors(...patterns: RegExp[]): void {
  allowances.push(...patterns);
}

/**
 * Lets the current test through a refusal it provokes on purpose: the browser's report of a
 * response with this status from this API path. A string is the whole path; a RegExp is the
 * path's end, for paths with ids in them (/facilities\/\d+\/equipments\/\d+/).
 */
export function allowRefusedRequest(status: number, path: string | RegExp): void {
  const pathSource =
    typeof path === 'string'
      ? path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      : `/[^?)]*${path.source}`;
  allowBrowserErrors(
    new RegExp(
      `^console error: Failed to load resource: the server responded with a status of ${status} \\([^)]*\\) \\(https?://[^/]+${pathSource}(\\?[^)]*)?\\)$`,
    ),
  );
}

/** The errors reported since the last call that no allowance of the current test covers. */
export function takeBrowserErrors(): string[] {
  const errors = reported.filter((text) => !allowances.some((pattern) => pattern.test(text)));
  reported.length = 0;
  allowances = [];
  return errors;
}
