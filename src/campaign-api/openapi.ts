import { z } from 'zod';
import { errorEnvelope, operations, OPERATION_NAMES, type OperationName } from './operations.js';

/**
 * The OpenAPI 3.1 document of the REST API, generated from the zod contract so it cannot drift
 * from what the emulator validates and the client expects. Schemas describe the wire format
 * (zod's input side): a response field the contract reads leniently appears as a plain string.
 */

type JsonSchema = Record<string, unknown>;

const HTTP_STATUS_OF: Record<string, string> = {
  incorrectData: '400',
  repeatCampaignData: '400',
  failMerchant: '403',
  campaignNotFound: '404',
  failPin: '409',
  failFinished: '409',
  failModerator: '409',
};

function jsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function pascal(name: string): string {
  return name[0]!.toUpperCase() + name.slice(1);
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function successSchema(name: OperationName): JsonSchema {
  const op = operations[name];
  const payload = jsonSchema(op.response);
  const status = { type: 'string', const: 'success' };
  if (op.wrapping === 'top-level') {
    const properties = { status, ...(payload.properties as JsonSchema) };
    return { ...payload, properties, required: ['status', ...((payload.required as string[]) ?? [])] };
  }
  const properties: JsonSchema = { status, result: ref(`${pascal(name)}Result`) };
  // The reference's stop sample carries an empty errors object next to the result.
  if (name === 'stop') properties.errors = { type: 'object', maxProperties: 0 };
  return { type: 'object', properties, required: ['status', 'result'] };
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ref('ErrorEnvelope') } } };
}

export function buildOpenApiDocument(): JsonSchema {
  const schemas: JsonSchema = { ErrorEnvelope: jsonSchema(errorEnvelope) };
  const paths: JsonSchema = {};
  for (const name of OPERATION_NAMES) {
    const op = operations[name];
    const type = pascal(name);
    schemas[`${type}Request`] = jsonSchema(op.request);
    if (op.wrapping === 'result') schemas[`${type}Result`] = jsonSchema(op.response);
    schemas[`${type}Success`] = successSchema(name);

    const responses: JsonSchema = {
      '200': { description: 'Success envelope.', content: { 'application/json': { schema: ref(`${type}Success`) } } },
      '401': errorResponse('No partner token, or one the service does not know (code unauthorized).'),
      '413': errorResponse('The body is over 10 MB (code payloadTooLarge).'),
    };
    const byStatus = new Map<string, string[]>();
    for (const code of ['incorrectData', ...op.errors]) {
      const status = HTTP_STATUS_OF[code]!;
      const codes = byStatus.get(status) ?? [];
      if (!codes.includes(code)) codes.push(code);
      byStatus.set(status, codes);
    }
    for (const [status, codes] of byStatus) responses[status] = errorResponse(`Error envelope with code ${codes.join(' or ')}.`);

    paths[`/v1/${op.path}`] = {
      post: {
        operationId: name,
        summary: op.summary,
        requestBody: { required: name !== 'getCategories', content: { 'application/json': { schema: ref(`${type}Request`) } } },
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Offer Campaign partner REST API',
      version: '1',
      description:
        'Campaigns, pins, leads and statistics of the Offer Campaign service. Every operation is POST with a JSON body; errors use the error envelope of docs/adr/rest-reference.md. Generated from the zod contract in src/campaign-api.',
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        partnerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The partner access token. The emulator also accepts the samples\' `Authorization: Bearer: <token>`.',
        },
      },
    },
    security: [{ partnerToken: [] }],
  };
}
