import type { AnyNode } from 'domhandler';

// Elements that start a new line of text: without this, "<p>a</p><p>b</p>" would read "ab".
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** The text of a parsed DOM subtree, one line per block element (whitespace not yet normalized). */
export function blockText(nodes: readonly AnyNode[]): string {
  const parts: string[] = [];
  // Source line breaks are spaces in HTML, except inside <pre>.
  const walk = (node: AnyNode, pre: boolean): void => {
    if (node.type === 'text') {
      parts.push(pre ? node.data : node.data.replace(/\s+/g, ' '));
    } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style' || node.type === 'root') {
      const name = 'name' in node ? node.name : '';
      const block = BLOCK.has(name);
      if (block) parts.push('\n');
      for (const child of node.children) walk(child, pre || name === 'pre');
      if (block) parts.push('\n');
    }
  };
  for (const node of nodes) walk(node, false);
  return parts.join('');
}
