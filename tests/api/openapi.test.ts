import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/lib/shared/webhooks.ts';
import { apiRoutes } from '../security/route-table.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The OpenAPI 3.1 document (issue 21): generated from the routes and their valibot schemas, so a
// route added tomorrow is in it; this test fails the day one is not.

let t: TestApp;
let doc: OpenAPIV3_1.Document;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.send('/rest/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  doc = await res.json();
});
afterAll(() => t?.close());

const operation = (path: string, method: string) =>
  (doc.paths?.[path] as Record<string, OpenAPIV3_1.OperationObject> | undefined)?.[method];

describe('GET /rest/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document served to anyone, for this deployment’s origin', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Coinfair API');
    expect(doc.servers).toEqual([{ url: 'http://localhost' }]);
    expect(Object.keys(doc.components?.securitySchemes ?? {})).toEqual(['session', 'apiKey']);
  });

  it('describes every route of the API, with its method', () => {
    const missing = apiRoutes(t.app)
      // The document itself aside.
      .filter((route) => /^\/(rest\/v1|uploads)\//.test(route.path) && route.path !== '/rest/v1/openapi.json')
      .filter((route) => !operation(route.path.replace(/:(\w+)/g, '{$1}'), route.method.toLowerCase()))
      .map((route) => route.key);
    expect(missing).toEqual([]);
    // And nothing that is not one: the browser-only helpers stay out.
    expect(Object.keys(doc.paths ?? {}).every((path) => /^\/(rest\/v1|uploads)\//.test(path))).toBe(true);
  });

  it('takes each input from the schema its route validates with', () => {
    const events = operation('/rest/v1/webhooks/events', 'post');
    const requestBody = events?.requestBody as OpenAPIV3_1.RequestBodyObject;
    const body = requestBody.content['application/json']?.schema as {
      properties: { events: { items: { properties: { name: { enum: string[] } } } } };
    };
    expect(body.properties.events.items.properties.name.enum).toEqual([...WEBHOOK_EVENTS]);
    const messages = operation('/rest/v1/trade/{id}/messages', 'get');
    expect(messages?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id', required: true })]),
    );
    expect(events?.responses?.['400']).toEqual({
      description: expect.stringContaining('ERROR_INPUT_VALIDATION'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('says who may call: visitors, sessions and keys, or sessions only', () => {
    expect(operation('/rest/v1/offers', 'get')?.security).toEqual([]);
    expect(operation('/rest/v1/trade/{id}/release', 'post')?.security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(operation('/rest/v1/wallet/send', 'post')?.security).toEqual([{ session: [] }]);
    expect(operation('/rest/v1/api-keys', 'post')?.tags).toEqual(['API keys']);
    expect(operation('/rest/v1/trade/{id}/release', 'post')?.tags).toEqual(['Trades']);
  });
});
