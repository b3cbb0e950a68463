// What the sample page's scripts make links of. A URL in a result comes from whoever imported the document:
// only http(s) and relative URLs become links, never javascript:, data: or any other scheme. The URL parser
// is the browser's, so what is checked is what runs.
export const safeHref = (url) => {
  try {
    const parsed = new URL(String(url), location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
};
