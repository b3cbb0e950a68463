import type { SourceDocument, SourceReadError } from '../api.js';

export function isReadError(item: SourceDocument | SourceReadError): item is SourceReadError {
  return 'error' in item && !('attributes' in item);
}
