/**
 * JSON as the docs show it: real JSON, plus `...` (or `…`) where the document leaves something out. In an
 * object, `...` stands for the members not shown; in an array, for elements not shown; as a value, for any
 * value. Real output parses with the same parser (it never holds a bare `...`).
 */

export type Pattern =
  | { kind: 'any' }
  | { kind: 'object'; members: Array<[string, Pattern]>; open: boolean }
  | { kind: 'array'; items: Pattern[]; open: boolean }
  | { kind: 'scalar'; value: string | number | boolean | null };

const ANY: Pattern = { kind: 'any' };

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  /** Every value in the text, one after the other (as `jq -c` prints them); null when it is not such a text. */
  all(): Pattern[] | null {
    const values: Pattern[] = [];
    try {
      this.space();
      while (this.at < this.text.length) {
        values.push(this.value());
        this.space();
      }
    } catch {
      return null;
    }
    return values.length > 0 ? values : null;
  }

  private fail(): never {
    throw new SyntaxError(`unexpected input at ${this.at}`);
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private ellipsis(): boolean {
    if (this.text.startsWith('...', this.at)) {
      this.at += 3;
      return true;
    }
    if (this.text[this.at] === '…') {
      this.at += 1;
      return true;
    }
    return false;
  }

  private value(): Pattern {
    this.space();
    if (this.ellipsis()) return ANY;
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return { kind: 'scalar', value: this.string() };
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.at, this.at + 40),
    );
    if (!literal) this.fail();
    this.at += literal[0].length;
    return { kind: 'scalar', value: JSON.parse(literal[0]) as string | number | boolean | null };
  }

  private string(): string {
    const match = /^"(?:[^"\\\n]|\\.)*"/.exec(this.text.slice(this.at));
    if (!match) this.fail();
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  /** Items separated by commas up to `close`; `...` may stand in for any number of them. */
  private list(close: string, item: () => void, onEllipsis: () => void): void {
    this.at++;
    this.space();
    if (this.text[this.at] === close) {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      if (this.ellipsis()) onEllipsis();
      else item();
      this.space();
      const c = this.text[this.at++];
      if (c === close) return;
      if (c !== ',') this.fail();
    }
  }

  private object(): Pattern {
    const members: Array<[string, Pattern]> = [];
    let open = false;
    this.list(
      '}',
      () => {
        const key = this.string();
        this.space();
        if (this.text[this.at++] !== ':') this.fail();
        members.push([key, this.value()]);
      },
      () => {
        open = true;
      },
    );
    return { kind: 'object', members, open };
  }

  private array(): Pattern {
    const items: Pattern[] = [];
    let open = false;
    this.list(
      ']',
      () => items.push(this.value()),
      () => {
        open = true;
      },
    );
    return { kind: 'array', items, open };
  }
}

export function parseJsonPatterns(text: string): Pattern[] | null {
  return new Parser(text).all();
}

/** A pattern back to JSON-like text, for messages. */
export function show(pattern: Pattern): string {
  switch (pattern.kind) {
    case 'any':
      return '...';
    case 'scalar':
      return JSON.stringify(pattern.value);
    case 'array':
      return `[${[...pattern.items.map(show), ...(pattern.open ? ['...'] : [])].join(',')}]`;
    case 'object':
      return `{${[...pattern.members.map(([k, v]) => `${JSON.stringify(k)}:${show(v)}`), ...(pattern.open ? ['...'] : [])].join(',')}}`;
  }
}
