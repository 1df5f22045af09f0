import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs the limits command line (contracts/limits.md) on an input, as a validation team runs it:
 * a child process reading standard input. Its exit status and standard output.
 */
export function runCli(
  input: unknown,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const child = spawn(tsx, [join(root, 'server', 'cli', 'limits.ts'), ...args, '-'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify(input));
  });
}
