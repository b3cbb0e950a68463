// The cms plugin's published contract: the shapes its HTTP API takes and answers, as types only. It provides
// no service and declares no hook; other plugins and clients reach it over HTTP (/api/v2/cms).

export type PathEvent = 'INDEXING' | 'DEINDEXING' | 'PUBLISHING' | 'UNPUBLISHING';
export type PathAttribute = 'ID' | 'URL';

/** Body of POST /api/v2/cms/index/{source}. */
export interface PathList {
  paths: string[];
  event?: PathEvent;
  recursive?: boolean;
  attribute?: PathAttribute;
}

export type ContentType = 'cq:Page' | 'dam:Asset';
/** The two copies of a content repository: author (editing) and publish (what visitors see). */
export type Environment = 'author' | 'publish';

/** Which search field each content property goes to; null leaves it out. */
export interface FieldMapping {
  title: string | null;
  description: string | null;
  text: string | null;
  tags: string | null;
  lastModified: string | null;
  template: string | null;
}

/** A content-repository source as GET /api/v2/cms/source/{id} answers it (the password is never shown). */
export interface CmsSource {
  id: string;
  name: string;
  description: string;
  endpoint: string;
  username: string;
  passwordSet: boolean;
  rootPath: string;
  contentTypes: ContentType[];
  defaultLocale: string;
  localePaths: Array<{ path: string; locale: string }>;
  author: boolean;
  publish: boolean;
  authorSite: string | null;
  publishSite: string | null;
  deliveryUrlPrefix: string | null;
  fields: FieldMapping;
  schedule: string | null;
  created: string;
  modified: string;
}
