/**
 * The `capacity` highest-scored pairs of a stream, held in typed arrays (a min-heap of slot
 * numbers on score, the earlier pair kept on a tie), so that a change that moves a million pairs
 * keeps only the pairs it lists. A slot holds the pair's after-side product indices, its before
 * index `k` and its after limits; the caller fills the limits of the slot `put` returns.
 */
export class TopPairs {
  readonly capacity: number;
  size = 0;
  private seq = 0;
  private readonly heap: Int32Array;
  readonly score: Float64Array;
  private readonly order: Float64Array;
  readonly previous: Int32Array;
  readonly next: Int32Array;
  readonly k: Int32Array;
  readonly maco: Float64Array;
  readonly sal: Float64Array;
  readonly swab: Float64Array;
  readonly rinse: Float64Array;
  readonly governing: Int8Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.heap = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
    this.order = new Float64Array(capacity);
    this.previous = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.k = new Int32Array(capacity);
    this.maco = new Float64Array(capacity);
    this.sal = new Float64Array(capacity);
    this.swab = new Float64Array(capacity);
    this.rinse = new Float64Array(capacity);
    this.governing = new Int8Array(capacity);
  }

  /** Slot a goes before slot b in the heap: a lower score, or the same score and later. */
  private below(a: number, b: number): boolean {
    const sa = this.score[a] ?? 0;
    const sb = this.score[b] ?? 0;
    return sa < sb || (sa === sb && (this.order[a] ?? 0) > (this.order[b] ?? 0));
  }

  /**
   * The score of the pair `put` is handed next, set here first: a number passed to a call the
   * compiler does not inline is boxed on the heap, and a change that moves every pair puts 1.5
   * million of them at 5,000 products (issue 34).
   */
  readonly offered = new Float64Array(1);

  /**
   * Keeps a pair of the score `offered[0]` if it is among the highest so far: returns the slot to
   * fill in with its limits, or -1 when it is not kept.
   */
  put(previous: number, next: number, k: number): number {
    const score = this.offered[0] ?? 0;
    if (this.capacity === 0) return -1;
    const grows = this.size < this.capacity;
    const slot = grows ? this.size : (this.heap[0] ?? 0);
    if (!grows && !(score > (this.score[slot] ?? 0))) return -1;
    this.score[slot] = score;
    this.order[slot] = this.seq++;
    this.previous[slot] = previous;
    this.next[slot] = next;
    this.k[slot] = k;
    if (grows) {
      // While the heap grows, slot n sits at heap position n until it moves up.
      this.heap[this.size++] = slot;
      this.up(slot);
    } else {
      this.down(0);
    }
    return slot;
  }

  private up(at: number): void {
    const h = this.heap;
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const a = h[i] ?? 0;
      const b = h[parent] ?? 0;
      if (!this.below(a, b)) return;
      h[i] = b;
      h[parent] = a;
      i = parent;
    }
  }

  private down(at: number): void {
    const h = this.heap;
    let i = at;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < this.size && this.below(h[l] ?? 0, h[least] ?? 0)) least = l;
      if (r < this.size && this.below(h[r] ?? 0, h[least] ?? 0)) least = r;
      if (least === i) return;
      const t = h[i] ?? 0;
      h[i] = h[least] ?? 0;
      h[least] = t;
      i = least;
    }
  }

  /** Slots from the highest score down, the earlier pair first on a tie. */
  sorted(): number[] {
    const slots = Array.from({ length: this.size }, (_, i) => i);
    return slots.sort(
      (i, j) =>
        (this.score[j] ?? 0) - (this.score[i] ?? 0) || (this.order[i] ?? 0) - (this.order[j] ?? 0),
    );
  }
}
