import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type ApiRouter, httpErrors } from 'vela/plugin';

const require = createRequire(import.meta.url);
const own = (name: string) => readFileSync(new URL(`../page/${name}`, import.meta.url));
/** A file of an installed package (through its package.json: react's exports do not list its UMD builds). */
const fromPackage = (name: string, file: string) =>
  readFileSync(path.join(path.dirname(require.resolve(`${name}/package.json`)), file));

/**
 * GraphiQL's files, from the npm packages (no CDN) and the page's own two; read when first asked for, then
 * kept. A fixed set of names, so no path reaches other files.
 */
const ASSETS: Record<string, { read: () => Buffer; type: string }> = {
  'react.production.min.js': {
    read: () => fromPackage('react', 'umd/react.production.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'react-dom.production.min.js': {
    read: () => fromPackage('react-dom', 'umd/react-dom.production.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.js': { read: () => fromPackage('graphiql', 'graphiql.min.js'), type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { read: () => fromPackage('graphiql', 'graphiql.min.css'), type: 'text/css; charset=utf-8' },
  'graphiql-page.js': { read: () => own('graphiql-page.js'), type: 'text/javascript; charset=utf-8' },
  'graphiql-page.css': { read: () => own('graphiql-page.css'), type: 'text/css; charset=utf-8' },
};

/**
 * No inline script or style: the scripts and stylesheets are the files above. GraphiQL's stylesheet carries
 * its fonts and icons as data: URLs. React and CodeMirror set styles through the DOM (element.style), which
 * style-src does not govern.
 */
export const GRAPHIQL_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** `GET /graphql`: GraphiQL, the GraphQL explorer, for POST /graphql (public, as the endpoint is). */
export function mountGraphiql(router: ApiRouter): void {
  const cache = new Map<string, Buffer>();
  const page = own('graphiql.html');
  router.raw.get('/graphql/assets/:name', (req, res) => {
    const name = String(req.params.name);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name]! : undefined;
    if (!asset) throw httpErrors.notFound(`GraphiQL has no file named "${name.slice(0, 100)}"`);
    let body = cache.get(name);
    if (!body) {
      body = asset.read();
      cache.set(name, body);
    }
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' }).send(body);
  });
  router.raw.get('/graphql', (_req, res) => {
    res.setHeader('Content-Security-Policy', GRAPHIQL_POLICY);
    res.type('html').send(page);
  });
}
