import { describe, expect, it } from 'vitest';
import { blames, interpretResponse, formatPath } from '../../src/campaign-api/envelope.js';
import {
  BusinessError,
  ContractError,
  HttpStatusError,
  MalformedResponseError,
  RequestRefusedError,
  UnauthenticatedError,
} from '../../src/campaign-api/errors.js';
import { isBackendFailure, isRetryableForIdempotent, isRetryableForWrite } from '../../src/campaign-api/resilience.js';

const body = (value: unknown) => JSON.stringify(value);

describe('interpretResponse: success envelopes', () => {
  it('returns the validated result of a success envelope', () => {
    const verdict = interpretResponse('start', 200, body({ status: 'success', result: { ymCampaignId: 7, campaignStatus: 'started' } }));
    expect(verdict).toEqual({ kind: 'success', value: { ymCampaignId: 7, campaignStatus: 'started' } });
  });

  it('accepts the empty errors object of the stop sample', () => {
    const verdict = interpretResponse('stop', 200, body({ status: 'success', errors: {}, result: { ymCampaignId: 7, campaignStatus: 'paused' } }));
    expect(verdict).toEqual({ kind: 'success', value: { ymCampaignId: 7, campaignStatus: 'paused' } });
  });

  it('reads get-all-campaigns from the top level, without a result wrapper', () => {
    const verdict = interpretResponse(
      'getAllCampaigns',
      200,
      body({ status: 'success', total: 2, campaigns: [{ ymCampaignId: 1, campaignStatus: 'started' }, { ymCampaignId: 2, campaignStatus: 'paused' }] }),
    );
    expect(verdict).toEqual({
      kind: 'success',
      value: { total: 2, campaigns: [{ ymCampaignId: 1, campaignStatus: 'started' }, { ymCampaignId: 2, campaignStatus: 'paused' }] },
    });
  });

  it('keeps an unknown enum value as an unknown marker instead of failing the page', () => {
    const verdict = interpretResponse(
      'getAllCampaigns',
      200,
      body({ status: 'success', total: 2, campaigns: [{ ymCampaignId: 1, campaignStatus: 'archived' }, { ymCampaignId: 2, campaignStatus: 'started' }] }),
    );
    expect(verdict.kind).toBe('success');
    if (verdict.kind !== 'success') return;
    expect(verdict.value.campaigns[0]!.campaignStatus).toEqual({ unknown: 'archived' });
    expect(verdict.value.campaigns[1]!.campaignStatus).toBe('started');
  });
});

describe('interpretResponse: contract breaks', () => {
  it('names the operation and the first offending path of a top-level payload', () => {
    const campaigns = [0, 1, 2, 3].map((i) => ({ ymCampaignId: i + 1, campaignStatus: i === 3 ? 5 : 'started' }));
    const verdict = interpretResponse('getAllCampaigns', 200, body({ status: 'success', total: 4, campaigns }));
    expect(verdict.kind).toBe('unusable');
    if (verdict.kind !== 'unusable') return;
    expect(verdict.error).toBeInstanceOf(ContractError);
    expect(verdict.error.path).toBe('campaigns[3].campaignStatus');
    expect(verdict.error.message).toMatch(/^getAllCampaigns: response breaks the contract at campaigns\[3\]\.campaignStatus: .*got number 5$/);
  });

  it('points into result for wrapped payloads, and says a required field is missing', () => {
    const verdict = interpretResponse('info', 200, body({ status: 'success', result: { ymCampaignId: 3, campaignStatus: 'started' } }));
    expect(verdict.kind).toBe('unusable');
    if (verdict.kind !== 'unusable') return;
    expect(verdict.error.path).toBe('result.campaignAccepts');
    expect(verdict.error.message).toContain('expected number, got nothing (the field is missing)');
  });

  it('requires the result object of a wrapped success', () => {
    const verdict = interpretResponse('get', 200, body({ status: 'success' }));
    expect(verdict.kind).toBe('unusable');
    if (verdict.kind !== 'unusable') return;
    expect(verdict.error.path).toBe('result');
  });

  it('formats paths the way a reader writes them', () => {
    expect(formatPath(['result', 'campaigns', 0, 'campaignStatus'])).toBe('result.campaigns[0].campaignStatus');
    expect(formatPath([2, 'a'])).toBe('[2].a');
    expect(formatPath([])).toBe('');
  });
});

describe('interpretResponse: error envelopes of design 4.7', () => {
  const shapes: Array<[string, unknown]> = [
    ['an object {code, message, fields}', { status: 'error', errors: { code: 'incorrectData', message: 'bad colour', fields: [{ field: 'backgroundColor', message: 'too light' }] } }],
    ['an array of {code, message?}', { status: 'error', errors: [{ code: 'incorrectData', message: 'bad colour', field: 'backgroundColor' }, { code: 'incorrectData' }] }],
    ['an object keyed by code', { status: 'error', errors: { incorrectData: 'bad colour' } }],
  ];

  for (const [shape, envelope] of shapes) {
    for (const httpStatus of [200, 400]) {
      it(`reads errors as ${shape} with HTTP ${httpStatus}`, () => {
        const verdict = interpretResponse('create', httpStatus, body(envelope));
        expect(verdict.kind).toBe('refused');
        if (verdict.kind !== 'refused') return;
        const error = verdict.error as BusinessError;
        expect(error).toBeInstanceOf(BusinessError);
        expect(error.code).toBe('incorrectData');
        expect(error.detail).toBe('bad colour');
        expect(error.httpStatus).toBe(httpStatus);
        expect(error.message).toBe('create: incorrectData: bad colour');
      });
    }
  }

  it('keeps the field details of both shapes that carry them', () => {
    const fromObject = interpretResponse('create', 400, body(shapes[0]![1])) as { error: BusinessError };
    const fromArray = interpretResponse('create', 400, body(shapes[1]![1])) as { error: BusinessError };
    expect(fromObject.error.fields).toEqual([{ field: 'backgroundColor', message: 'too light' }]);
    expect(fromArray.error.fields).toEqual([{ field: 'backgroundColor', message: 'bad colour' }]);
  });

  it('reads an error without status when errors names a code', () => {
    const verdict = interpretResponse('get', 404, body({ errors: [{ code: 'campaignNotFound' }] }));
    expect(verdict.kind).toBe('refused');
    if (verdict.kind !== 'refused') return;
    expect((verdict.error as BusinessError).code).toBe('campaignNotFound');
    expect((verdict.error as BusinessError).detail).toBe('the backend gave no message');
  });

  it('keeps the current status of a start or stop failure', () => {
    for (const op of ['start', 'stop'] as const) {
      const verdict = interpretResponse(
        op,
        409,
        body({ status: 'error', errors: { code: 'failFinished', message: 'finished' }, result: { ymCampaignId: 9, campaignStatus: 'finished' } }),
      );
      if (verdict.kind !== 'refused') throw new Error(`expected refused, got ${verdict.kind}`);
      expect((verdict.error as BusinessError).current).toEqual({ ymCampaignId: 9, campaignStatus: 'finished' });
    }
  });

  it('keeps an unknown current status as an unknown marker', () => {
    const verdict = interpretResponse('start', 200, body({ status: 'error', errors: { failPin: 'no pins' }, result: { ymCampaignId: 9, campaignStatus: 'frozen' } }));
    if (verdict.kind !== 'refused') throw new Error(`expected refused, got ${verdict.kind}`);
    expect((verdict.error as BusinessError).current).toEqual({ ymCampaignId: 9, campaignStatus: { unknown: 'frozen' } });
  });

  it('treats 401 as an unauthenticated answer whatever the body', () => {
    for (const text of ['', 'Unauthorized', body({ status: 'error', errors: { code: 'unauthorized', message: 'no token' } })]) {
      const verdict = interpretResponse('get', 401, text);
      expect(verdict.kind).toBe('refused');
      if (verdict.kind === 'refused') expect(verdict.error).toBeInstanceOf(UnauthenticatedError);
    }
  });

  it('treats an unauthorized code on HTTP 200 as unauthenticated too', () => {
    const verdict = interpretResponse('get', 200, body({ status: 'error', errors: { code: 'unauthorized', message: 'unknown token' } }));
    expect(verdict.kind === 'refused' && verdict.error).toBeInstanceOf(UnauthenticatedError);
  });

  it('keeps a business code on a 5xx as a business error, but an unknown code there is an outage', () => {
    const business = interpretResponse('get', 500, body({ status: 'error', errors: { code: 'campaignNotFound', message: 'x' } }));
    expect(business.kind === 'refused' && business.error).toBeInstanceOf(BusinessError);
    const outage = interpretResponse('get', 503, body({ status: 'error', errors: { code: 'maintenance', message: 'back soon' } }));
    expect(outage.kind).toBe('failed');
    expect(outage.kind === 'failed' && outage.error).toBeInstanceOf(HttpStatusError);
  });
});

describe('interpretResponse: bodies that are no envelope', () => {
  it('reports a non-JSON 200 as malformed, quoting the start of the body', () => {
    const verdict = interpretResponse('get', 200, '<html>oops</html>');
    expect(verdict.kind).toBe('failed');
    if (verdict.kind !== 'failed') return;
    expect(verdict.error).toBeInstanceOf(MalformedResponseError);
    expect(verdict.error.message).toBe('get: malformed response (HTTP 200): expected a JSON envelope, got "<html>oops</html>"');
  });

  it('reports 5xx without an envelope as HTTP status errors: an outage', () => {
    for (const status of [500, 502, 503, 504, 599]) {
      const verdict = interpretResponse('get', status, 'Service Unavailable');
      expect(verdict.kind === 'failed' && verdict.error).toBeInstanceOf(HttpStatusError);
      expect(verdict.kind === 'failed' && (verdict.error as HttpStatusError).httpStatus).toBe(status);
    }
  });

  it('reports JSON that is neither success nor error as malformed', () => {
    const cases: Array<[string, RegExp]> = [
      [body([1, 2]), /expected a JSON object envelope, got an array of 2/],
      [body({ status: 'ok', result: {} }), /expected status "success" or an error envelope, got status string "ok"/],
      [body({ status: 'error', errors: {} }), /an error envelope must name an error code/],
      ['', /got an empty body/],
    ];
    for (const [text, message] of cases) {
      const verdict = interpretResponse('get', 200, text);
      expect(verdict.kind === 'failed' && verdict.error).toBeInstanceOf(MalformedResponseError);
      expect(verdict.kind === 'failed' && verdict.error.message).toMatch(message);
    }
  });

  it('refuses a success envelope that comes with a status outside 2xx: as malformed, an outage, or a refusal by its status', () => {
    const success = body({ status: 'success', result: { ymCampaignId: 1, campaignStatus: 'started' } });
    const redirect = interpretResponse('start', 302, success);
    expect(redirect.kind === 'failed' && redirect.error).toBeInstanceOf(MalformedResponseError);
    const outage = interpretResponse('start', 503, success);
    expect(outage.kind === 'failed' && outage.error).toBeInstanceOf(HttpStatusError);
    const refusal = interpretResponse('start', 404, success);
    expect(refusal.kind === 'refused' && refusal.error).toBeInstanceOf(RequestRefusedError);
  });
});

describe('interpretResponse: a refusal is not an outage', () => {
  it('blames the request for every 4xx and the backend for every 5xx, nothing else', () => {
    for (let status = 100; status <= 599; status++) {
      expect(blames(status), String(status)).toBe(status >= 400 && status < 500 ? 'request' : status >= 500 ? 'backend' : undefined);
    }
  });

  it('takes a 4xx without a usable envelope as a refusal of this request: no retry, never counted towards the breaker', () => {
    const bodies = [
      '',
      '<html><head><title>400 Request Header Or Cookie Too Large</title></head></html>',
      'Too Many Requests',
      body([1, 2]),
      body({ status: 'error', errors: {} }),
      body({ status: 'ok' }),
    ];
    for (const status of [400, 403, 404, 405, 408, 413, 414, 429, 431, 499]) {
      for (const text of bodies) {
        const verdict = interpretResponse('get', status, text);
        expect(verdict.kind, `${status} ${text}`).toBe('refused');
        if (verdict.kind !== 'refused') continue;
        expect(verdict.error).toBeInstanceOf(RequestRefusedError);
        expect((verdict.error as RequestRefusedError).httpStatus).toBe(status);
        // What the body said is not repeated: it may be a proxy's page, or echo the request.
        expect(verdict.error.message).toBe(`get: the backend refused the request with HTTP ${status} and no error code`);
        expect(isBackendFailure(verdict.error)).toBe(false);
        expect(isRetryableForIdempotent(verdict.error)).toBe(false);
        expect(isRetryableForWrite(verdict.error)).toBe(false);
      }
    }
  });

  it('lets an error envelope on a 4xx speak for itself: its code, or a refused token', () => {
    const limited = interpretResponse('get', 429, body({ status: 'error', errors: { code: 'tooManyRequests', message: 'slow down' } }));
    expect(limited.kind === 'refused' && limited.error).toBeInstanceOf(BusinessError);
    expect(limited.kind === 'refused' && (limited.error as BusinessError).code).toBe('tooManyRequests');
    const token = interpretResponse('get', 400, body({ status: 'error', errors: { code: 'invalidToken', message: 'bad token' } }));
    expect(token.kind === 'refused' && token.error).toBeInstanceOf(UnauthenticatedError);
  });

  it('keeps what fails as an outage: a 5xx, and a body that is no answer outside the 4xx', () => {
    for (const verdict of [interpretResponse('get', 500, ''), interpretResponse('get', 502, '<html>Bad Gateway</html>'), interpretResponse('get', 200, 'nope')]) {
      expect(verdict.kind).toBe('failed');
      if (verdict.kind === 'failed') expect(isBackendFailure(verdict.error) && isRetryableForIdempotent(verdict.error)).toBe(true);
    }
  });
});
