import fs from 'node:fs';
import path from 'node:path';

/*
 * Which folder may import which (issue 15). Paths are resolved, so a deep relative import and a
 * `#client/…` alias are judged alike. Layers, top to bottom:
 *   client: Root → app/ (shell, route wiring) → features/<area>/ (one area's pages) → shared/
 *           (what more than one feature uses) → api/, session/; account/ is the signed-out screens.
 *   server: app.ts → modules/ → http/ (guards, context) → sessions/, records/, entities/, db/, util/.
 */
const LAYERS = [
  {
    from: /^client\/features\/([^/]+)\//,
    to: /^client\/features\/([^/]+)\//,
    sameArea: true,
    message: 'A feature imports no other feature: move what both use to client/shared/.',
  },
  {
    from: /^client\/(features|shared|account|api|session)\//,
    to: /^client\/app\//,
    message: 'Only the shell wires features: nothing below client/app/ imports it.',
  },
  {
    from: /^client\/(shared|api|session|account)\//,
    to: /^client\/features\//,
    message: 'client/shared/ and the layers below it import no feature.',
  },
  {
    from: /^server\/http\//,
    to: /^server\/modules\//,
    message:
      'server/http/ imports no module: move the shared piece below it (db/, util/, sessions/).',
  },
];

const aliases = Object.entries(
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).imports ?? {},
);

/** The repository path a specifier names, or null for a package. */
function resolve(spec, file, cwd) {
  if (spec.startsWith('.')) return path.relative(cwd, path.resolve(path.dirname(file), spec));
  for (const [key, value] of aliases) {
    const prefix = key.replace('*', '');
    if (spec.startsWith(prefix)) {
      return path.normalize(value.replace('*', spec.slice(prefix.length)));
    }
  }
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [], messages: { layer: '{{message}} ({{target}})' } },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const layers = LAYERS.filter((layer) => layer.from.test(file));
    if (!layers.length) return {};
    function check(source) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolve(source.value, context.filename, context.cwd)
        ?.split(path.sep)
        .join('/');
      if (!target) return;
      for (const layer of layers) {
        const into = layer.to.exec(target);
        if (!into) continue;
        if (layer.sameArea && layer.from.exec(file)[1] === into[1]) continue;
        context.report({
          node: source,
          messageId: 'layer',
          data: { message: layer.message, target },
        });
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const boundaries = { rules: { layers: rule } };
