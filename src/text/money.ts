const MONEY = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;

/** A non-negative decimal with at most two decimals, such as "15" or "10.00": money and amounts as this API writes them. */
export function isMoney(value: string): boolean {
  return MONEY.test(value);
}
