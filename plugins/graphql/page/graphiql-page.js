// GraphiQL for POST /graphql, with a first query that shows the schema's main parts. Served as a file (no
// inline script), from the local graphiql, react and react-dom packages: the page's CSP allows 'self' only.
(() => {
  const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
  const defaultQuery = `# POST /graphql: siteNames, and siteSearch(siteName: "<name>" or SITE_NAME, searchParams, locale)
{
  siteNames
}
`;
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, { fetcher, defaultQuery, defaultEditorToolsVisibility: true }));
})();
