// `npm start` runs this process under `sh -c`, and on SIGTERM npm signals only that shell: the
// shell ends and this process would go on serving, orphaned. Watching for the parent to go away
// turns that (and an npm killed outright) into a normal graceful stop.

/**
 * Calls `onOrphaned` once, when the process that started this one has ended; by default it sends
 * this process SIGTERM, so that the server's own shutdown (in-flight requests finish) runs.
 */
export function stopWithParent(
  onOrphaned = () => process.kill(process.pid, 'SIGTERM'),
  intervalMs = 250,
) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  // The watch alone never keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
