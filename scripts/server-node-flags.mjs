/**
 * Node's flags for the server process (`npm start`, the README's service unit, and whatever
 * starts it as they do). `--liftoff-only`: the embedded database is PostgreSQL compiled to
 * WebAssembly, and V8's optimizing tier recompiled its hottest functions a few seconds after each
 * start, taking over 500 MiB for a moment (a start's peak 794–862 MiB, 270–288 MiB without it,
 * Node 24), which a container's memory limit meets first. The price: catalogue-heavy queries ran
 * about 15 % slower at their best (627 against 727 ms a round; bench/pglite-tiers.bench.ts), and a
 * site that needs speed runs a PostgreSQL server, where the flag changes nothing. A V8 flag is
 * the process's and is frozen once V8 starts, so it cannot be set from inside, nor through
 * NODE_OPTIONS.
 */
export const SERVER_NODE_FLAGS = ['--liftoff-only'];
