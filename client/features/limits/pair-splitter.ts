/**
 * Splits the MAC matrix document (compact JSON, `{"pairs":[{…},{…},…],"products":…}`) as it
 * arrives: each pair object comes out as its own JSON text, and the rest of the document is
 * kept without them. A 1,000-product facility has a million pairs, about 500 MB of JSON: more
 * than one string may hold, so the document is never parsed whole.
 */
export class PairSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Inside the top-level "pairs" array. */
  private inPairs = false;
  private seenPairsKey = false;
  private pair = '';
  private rest = '';
  private prefix = '';

  /** Feeds a chunk of text; calls `onPair` with the JSON text of every pair it completes. */
  feed(chunk: string, onPair: (json: string) => void): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      // The document starts with '{"pairs":[' when it has pairs (a summary has none).
      if (this.prefix.length < 10 && c > 32) {
        this.prefix += chunk[i];
        if (this.prefix === '{"pairs":') this.seenPairsKey = true;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
        continue;
      }
      if (c === 34) {
        this.inString = true;
      } else if (c === 123 /* { */ || c === 91 /* [ */) {
        this.depth++;
        if (this.inPairs && this.depth === 3 && c === 123) {
          this.rest += chunk.slice(start, i);
          start = i;
        } else if (this.depth === 2 && c === 91 && this.seenPairsKey && !this.inPairs) {
          this.inPairs = true;
        }
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        if (this.inPairs && this.depth === 3 && c === 125) {
          onPair(this.pair + chunk.slice(start, i + 1));
          this.pair = '';
          start = i + 1;
        } else if (this.inPairs && this.depth === 2 && c === 93) {
          this.inPairs = false;
          this.seenPairsKey = false;
        }
        this.depth--;
      } else if (c === 44 /* , */ && this.inPairs && this.depth === 2) {
        // The commas between pairs go with them, so the rest stays valid JSON.
        this.rest += chunk.slice(start, i);
        start = i + 1;
      }
    }
    const tail = chunk.slice(start);
    if (this.inPairs && this.depth >= 3) this.pair += tail;
    else this.rest += tail;
  }

  /** The document without its pairs: `{"pairs":[],"products":[…],"equipment":[…]}`. */
  finish(): string {
    return this.rest;
  }
}
