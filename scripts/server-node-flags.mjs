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
 *
 * `--max-semi-space-size=32` and `--heap-growing-percent=50` (issue 34): by default V8 sizes a
 * young generation of up to 2 × 64 MiB on a machine of this memory, and once a full collection
 * leaves a live heap of L lets the old generation grow to up to 4 L before the next one; a change
 * evaluation at 5,000 products allocates some 450 MiB, so the young generation reached its 128
 * MiB at the first evaluation and stayed, and garbage piled up to 450 MiB of old generation
 * between full collections, one evaluation after another: 413 MiB peak at the first, 460–600 at
 * the next ones on a PostgreSQL server. Nothing was held between evaluations (a forced
 * collection brought the process back to 170–190 MiB each time). With a young generation of
 * 2 × 32 MiB and an old generation let grow by half its live size: 328–354 MiB, evaluation after
 * evaluation, and the same CPU (2.05–2.42 s an evaluation against 2.07–2.27 s, runs taken in
 * turn); 2 × 16 MiB took 15 % more CPU for 30 MiB less. Both apply to the embedded database's
 * worker too (its young generation has its own limit, pglite-db.ts).
 */
export const SERVER_NODE_FLAGS = [
  '--liftoff-only',
  '--max-semi-space-size=32',
  '--heap-growing-percent=50',
];
