import type { CampaignStatus, FieldIssue } from '../campaign-api/index.js';

const HTTP_STATUS: Record<string, number> = {
  incorrectData: 400,
  repeatCampaignData: 400,
  unauthorized: 401,
  failMerchant: 403,
  campaignNotFound: 404,
  unknownOperation: 404,
  methodNotAllowed: 405,
  failPin: 409,
  failFinished: 409,
  failModerator: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  internalError: 500,
};

/**
 * A refusal of a REST operation, rendered as the REST API's error envelope. Start and stop
 * failures carry the campaign's current status as `result`.
 */
export class ApiFailure extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: string,
    message: string,
    readonly fields?: FieldIssue[],
    readonly result?: { ymCampaignId: number; campaignStatus: CampaignStatus },
  ) {
    super(message);
    this.httpStatus = HTTP_STATUS[code] ?? 400;
  }

  toJSON(): object {
    const errors: { code: string; message: string; fields?: FieldIssue[] } = { code: this.code, message: this.message };
    if (this.fields) errors.fields = this.fields;
    return this.result ? { status: 'error', errors, result: this.result } : { status: 'error', errors };
  }
}

/** incorrectData for a set of field issues, with a summary naming every field. */
export function incorrectData(fields: FieldIssue[], summary?: string): ApiFailure {
  const names = [...new Set(fields.map((f) => f.field))];
  const message =
    summary ??
    (names.length === 1
      ? `${names[0]} ${fields[0]!.message}`
      : `${names.length} fields are invalid: ${names.join(', ')}`);
  return new ApiFailure('incorrectData', message, fields);
}

export function fieldFailure(field: string, message: string): ApiFailure {
  return incorrectData([{ field, message }]);
}
