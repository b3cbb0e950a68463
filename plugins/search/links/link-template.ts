import { encodeParam, encodeValue } from './encoding.js';
import { FILTER_PARAMS, FQ, fqField, type LinkBase, type Param } from './query-string.js';

/** `fq[]=` encoded once: every added filter of every link starts with it. */
const FQ_PREFIX = encodeParam(FQ, '');
const PAGE_ONE = encodeParam('p', '1');

/** A link with one parameter put in place: what comes before it and after it, encoded. */
interface Split {
  head: string;
  tail: string;
}

/**
 * The links of one search, made from its query string encoded once. A search answer holds tens to hundreds
 * of links (pages, locales, facet values, each result's metadata, each filter's removal), each the request
 * with one change: encoding every parameter again per link was most of their cost, so each parameter is
 * encoded here once and a link joins the encoded pieces around its change. Each method gives, byte for
 * byte, what the matching function of query-string.ts gives for the same LinkBase (links.test.ts pins those).
 */
export class LinkTemplate {
  /** Per parameter: its encoded `name=value`, and with `p` reset to 1 (a change of filters starts over). */
  private readonly pieces: readonly string[];
  private readonly resetPieces: readonly string[];
  private readonly splits = new Map<string, Split>();
  private fqPrefix?: string;
  private fqPresent?: ReadonlySet<string>;

  private constructor(
    readonly path: string,
    readonly params: readonly Param[],
    pieces?: readonly string[],
  ) {
    this.pieces = pieces ?? params.map(([name, value]) => encodeParam(name, value));
    this.resetPieces = params.some(([name]) => name === 'p')
      ? params.map(([name], i) => (name === 'p' ? PAGE_ONE : this.pieces[i]!))
      : this.pieces;
  }

  static of(base: LinkBase): LinkTemplate {
    return new LinkTemplate(base.path, base.params);
  }

  private join(pieces: readonly string[]): string {
    return pieces.length === 0 ? this.path : `${this.path}?${pieces.join('&')}`;
  }

  /** `toLink(base)`. */
  link(): string {
    return this.join(this.pieces);
  }

  /** `toLink(replaceParam(base, name, value))`: the first `name` replaced in place, else appended. */
  withParam(name: string, value: string): string {
    let split = this.splits.get(name);
    if (!split) {
      const at = this.params.findIndex(([n]) => n === name);
      const end = at < 0 ? this.pieces.length : at;
      split = { head: this.pieces.slice(0, end).join('&'), tail: at < 0 ? '' : this.pieces.slice(at + 1).join('&') };
      this.splits.set(name, split);
    }
    const { head, tail } = split;
    return `${this.path}?${head}${head ? '&' : ''}${encodeParam(name, value)}${tail ? '&' : ''}${tail}`;
  }

  /** `toLink(addFq(base, fq))` (addFqLink): the filter added unless the same fq[] is there, back to page 1. */
  addFq(fq: string): string {
    if (this.fqPrefix === undefined) {
      this.fqPrefix = this.join(this.resetPieces);
      this.fqPresent = new Set(this.params.filter(([n]) => n === FQ).map(([, v]) => v));
    }
    if (this.fqPresent!.has(fq)) return this.fqPrefix;
    return `${this.fqPrefix}${this.params.length === 0 ? '?' : '&'}${FQ_PREFIX}${encodeValue(fq)}`;
  }

  /** `toLink(removeFq(base, fq))`: every filter equal to `fq` dropped, back to page 1. */
  removeFq(fq: string): string {
    return this.join(this.resetPieces.filter((_, i) => !this.isFilter(i, fq)));
  }

  /** `toLink(removeFqByFields(base, fields))`. */
  removeFqFields(fields: Iterable<string>): string {
    return this.unfiltered(fields).link();
  }

  /**
   * `removeFqByFields(base, fields)`: the filters of these fields (and any filter without a field) dropped; the page is
   * kept.
   */
  unfiltered(fields: Iterable<string>): LinkTemplate {
    const drop = new Set(fields);
    const keep = (i: number) => {
      const [name, value] = this.params[i]!;
      if (!FILTER_PARAMS.has(name)) return true;
      const field = fqField(value);
      return field !== null && !drop.has(field);
    };
    return this.kept(keep);
  }

  /** `replaceParam(base, name, value)`. */
  replaced(name: string, value: string): LinkTemplate {
    const at = this.params.findIndex(([n]) => n === name);
    const params = this.params.slice();
    const pieces = this.pieces.slice();
    const piece = encodeParam(name, value);
    if (at < 0) {
      params.push([name, value]);
      pieces.push(piece);
    } else {
      params[at] = [name, value];
      pieces[at] = piece;
    }
    return new LinkTemplate(this.path, params, pieces);
  }

  /** `removeParam(base, name)`. */
  removed(name: string): LinkTemplate {
    return this.kept((i) => this.params[i]![0] !== name);
  }

  /** `addFq(base, fq)`: the filter added unless the same fq[] is there, back to page 1. */
  filtered(fq: string): LinkTemplate {
    const params: Param[] = this.params.map((param) => (param[0] === 'p' ? (['p', '1'] as const) : param));
    const pieces = this.resetPieces.slice();
    if (!this.params.some(([n, v]) => n === FQ && v === fq)) {
      params.push([FQ, fq]);
      pieces.push(`${FQ_PREFIX}${encodeValue(fq)}`);
    }
    return new LinkTemplate(this.path, params, pieces);
  }

  private isFilter(i: number, fq: string): boolean {
    const [name, value] = this.params[i]!;
    return value === fq && FILTER_PARAMS.has(name);
  }

  /** The parameters `keep` keeps, their encoding reused. */
  private kept(keep: (i: number) => boolean): LinkTemplate {
    const params: Param[] = [];
    const pieces: string[] = [];
    for (let i = 0; i < this.params.length; i++) {
      if (!keep(i)) continue;
      params.push(this.params[i]!);
      pieces.push(this.pieces[i]!);
    }
    return new LinkTemplate(this.path, params, pieces);
  }
}
