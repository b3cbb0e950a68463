import { bodySchema, ignoredMembers, type JsonSchema, recordSchema } from 'vela/plugin';

const credential = (what: string): JsonSchema => ({
  type: ['string', 'null'],
  description: `${what}: 32 lowercase hex characters`,
});

export const appSchema = recordSchema({
  id: 'string',
  name: 'string',
  description: 'string',
  callbackUrls: 'string[]',
  apiKey: credential('Consumer Key, the OAuth2 client_id'),
  apiSecret: credential('Consumer Secret, the client_secret'),
  accessToken: credential("the app's own bearer token (null after DELETE /{id}/accessTokens)"),
  accessTokenSecret: credential('secret of the access token'),
  createdAt: 'string',
  updatedAt: 'string',
});

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: 'string', maxLength: 2000 },
  callbackUrls: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 2000 } },
};

export const appCreateBody = bodySchema(['name'], fields);

/** Credentials and timestamps are read-only: sent back unchanged they are ignored. */
export const appUpdateBody = bodySchema([], {
  ...fields,
  ...ignoredMembers(['id', 'apiKey', 'apiSecret', 'accessToken', 'accessTokenSecret', 'createdAt', 'updatedAt']),
});
