/**
 * `args` with each `--name value` written as `--name=value`. A session or API token is random
 * base64url, and one in 64 starts with a dash: after `--token` as an argument of its own,
 * node:util's parseArgs takes it for an option and refuses the command line. What follows the
 * option is its value, whatever its first character.
 */
export function valuesJoined(args: readonly string[], names: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (names.some((name) => arg === `--${name}`) && i + 1 < args.length) {
      joined.push(`${arg}=${args[i + 1]}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}
