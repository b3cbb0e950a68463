import type { OpenApiRegistry } from './openapi-registry.js';

const checkSchema = {
  type: 'object',
  required: ['name', 'status'],
  properties: {
    name: { type: 'string' },
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    durationMs: { type: 'number' },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
};

const healthSchema = {
  type: 'object',
  required: ['status', 'service', 'version', 'uptimeSeconds', 'plugins'],
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    service: { type: 'string' },
    version: { type: 'string' },
    uptimeSeconds: { type: 'integer' },
    plugins: {
      type: 'object',
      description: 'one member per plugin on the service',
      additionalProperties: {
        type: 'object',
        properties: { status: { type: 'string', enum: ['UP', 'DOWN'] }, checks: { type: 'array', items: checkSchema } },
      },
    },
  },
};

/** The routes every service answers itself (ServiceServer), described beside the plugins' own. */
export function documentServiceRoutes(openapi: OpenApiRegistry): void {
  openapi.addRoute(
    'get',
    '/health',
    {
      access: 'public',
      tags: ['service'],
      summary: "The service's health: every check of every plugin on it",
      responses: {
        200: { description: 'every check is up', schema: healthSchema },
        503: { description: 'a check is down', schema: healthSchema },
      },
    },
    'runtime',
  );
  openapi.addRoute(
    'get',
    '/v3/api-docs',
    {
      access: 'public',
      tags: ['service'],
      summary: "This document: the service's OpenAPI 3.0.3 description",
      responses: {
        200: { description: 'the OpenAPI document', schema: { type: 'object', additionalProperties: true } },
      },
    },
    'runtime',
  );
}
