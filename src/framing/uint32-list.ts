// A list of small whole numbers that grows, four bytes each: per-position state of texts the data
// chose (open brackets, element lines), where a number[] of hundreds of millions would pass V8's
// largest array and end the process with a fatal error.
export class Uint32List {
  private data = new Uint32Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  pop(): void {
    this.length--;
  }

  at(k: number): number {
    return this.data[k]!;
  }

  last(): number {
    return this.data[this.length - 1]!;
  }
}
