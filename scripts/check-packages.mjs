// `npm run check:packages`: fails when code imports a package that package.json does not declare
// (it then works only while some other package happens to pull it in), when shipped server code
// imports a development-only package (the server bundle keeps packages external), or when a
// locked package does not support every Node version that engines.node admits.
// Usage: node scripts/check-packages.mjs [project root]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import semver from 'semver';
import ts from 'typescript';

const sourceRoots = ['core', 'server', 'client', 'e2e', 'bench', 'scripts'];
const sourceFile = /\.[cm]?[jt]sx?$/;
const skippedDirs = new Set(['node_modules', 'dist', 'data', 'coverage', '.test-output']);

// Only long-term-support lines (even majors) are checked: an odd major is out of support within
// months, no site runs one, and tools such as ESLint and Vite leave them out (engines.node is
// `>=22.13` while ESLint declares `^20.19.0 || ^22.13.0 || >=24`).
const ltsMajors = Array.from({ length: 20 }, (_, i) => 2 * i + 2);

/** The parts of a range that fall on a long-term-support line, one range per line and set. */
function ltsParts(range) {
  const parts = [];
  for (const set of new semver.Range(range).set) {
    const comparators = set.map((c) => c.value).join(' ');
    for (const major of ltsMajors) {
      const part = `${comparators} >=${major}.0.0 <${major + 1}.0.0-0`.trim();
      if (semver.validRange(part) && semver.minVersion(part)) parts.push(part);
    }
  }
  return parts;
}

function listSources(root) {
  const files = readdirSync(root)
    .filter((name) => sourceFile.test(name))
    .map((name) => join(root, name));
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skippedDirs.has(entry.name)) visit(path);
      } else if (sourceFile.test(entry.name)) files.push(path);
    }
  };
  sourceRoots
    .map((dir) => join(root, dir))
    .filter(existsSync)
    .forEach(visit);
  return files;
}

/**
 * The package a specifier names, or undefined for relative paths, the package's own subpath
 * imports (#core/…), URLs and Node built-ins.
 */
export function packageOf(specifier) {
  if (/^[./#]/.test(specifier) || specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

// require.resolve and import.meta.resolve of a name load a package too (pdfmake in a worker).
const resolveCall = /(?:require|import\.meta)\.resolve\(\s*['"]([^'"]+)['"]/g;

function importedPackages(file) {
  const source = readFileSync(file, 'utf8');
  // import, export … from, import(), require(): the same list TypeScript resolves.
  const specifiers = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
  specifiers.push(...[...source.matchAll(resolveCall)].map((m) => m[1]));
  return new Set(specifiers.map(packageOf).filter(Boolean));
}

/** The source files the server bundle is built from, as build-server.mjs bundles them. */
async function shippedServerFiles(root) {
  const entry = join(root, 'server/main.ts');
  if (!existsSync(entry)) return new Set();
  const { metafile } = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    outfile: 'main.js',
    logLevel: 'silent',
  });
  return new Set(Object.keys(metafile.inputs));
}

async function importProblems(root, pkg) {
  const runtime = new Set(Object.keys(pkg.dependencies ?? {}));
  const declared = new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {})]);
  const shipped = await shippedServerFiles(root);
  const problems = [];
  for (const file of listSources(root)) {
    const path = relative(root, file).split(sep).join('/');
    for (const name of importedPackages(file)) {
      if (name === pkg.name) continue;
      if (!declared.has(name))
        problems.push(`${path} imports ${name}, which package.json does not declare`);
      else if (!runtime.has(name) && shipped.has(path))
        problems.push(`${path} is in the server bundle but ${name} is only a devDependency`);
    }
  }
  return problems;
}

function engineProblems(lock, pkg) {
  const ours = pkg.engines?.node;
  if (!ours || !semver.validRange(ours)) return [`package.json has no valid engines.node`];
  const problems = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    const theirs = entry.engines?.node;
    if (!path || !theirs) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!semver.validRange(theirs) || !ltsParts(ours).every((part) => semver.subset(part, theirs)))
      problems.push(`${name}@${entry.version} needs Node ${theirs}; engines.node says ${ours}`);
  }
  return problems;
}

export async function checkPackages(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lockFile = join(root, 'package-lock.json');
  const lock = existsSync(lockFile) ? JSON.parse(readFileSync(lockFile, 'utf8')) : {};
  return [...(await importProblems(root, pkg)), ...engineProblems(lock, pkg)];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
  const problems = await checkPackages(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log('Every imported package is declared; every locked package runs on engines.node.');
}
