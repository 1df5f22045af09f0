// `npm run backup|restore|migrate-to-server`: runs server/cli/<name>.ts from the sources where
// they can be compiled (a checkout with dev dependencies), and the built dist/server/cli/<name>.js
// on a production install (`npm prune --omit=dev`), so that a site backs up either way.
const [name] = process.argv.splice(2, 1);
if (!['backup', 'restore', 'migrate-to-server'].includes(name ?? '')) {
  console.error(`Unknown operation ${name}`);
  process.exit(2);
}
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  register = undefined;
}
if (register) {
  register();
  await import(new URL(`../server/cli/${name}.ts`, import.meta.url).href);
} else {
  await import(new URL(`../dist/server/cli/${name}.js`, import.meta.url).href);
}
