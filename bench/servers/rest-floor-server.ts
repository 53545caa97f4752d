import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'undici';

/**
 * The REST floor for `list cards`: what a hand-written client does without the BFF. Per request it
 * reads one page (get-all-campaigns, limit PAGE_SIZE) and then every campaign of it with
 * campaigns/get, all at once, over a keep-alive undici Pool, and answers the cards as JSON in the
 * shape of the GraphQL answer. No validation, no GraphQL, no resilience: the best case.
 */

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`rest-floor-server: ${name} is required\n`);
    process.exit(2);
  }
  return value;
}

const port = Number(required('PORT'));
const backend = new URL(required('CAMPAIGN_API_URL'));
const connections = Number(process.env.POOL_CONNECTIONS ?? '32');
const pageSize = Number(process.env.PAGE_SIZE ?? '50');
const basePath = backend.pathname.replace(/\/+$/, '');
const pool = new Pool(backend.origin, { connections, pipelining: 1 });

interface Details {
  merchantName: string;
  description: string;
  conditions: string;
  discountType: string;
  discountAmount: string;
  discountCurrency?: number;
  merchantLogoSvg: string;
  merchantLogoPng: string;
  backgroundColor: string;
  fontColor: string;
  backgroundImage?: string;
  acceptUrl?: string;
}

async function call<T>(operation: string, authorization: string, body: unknown): Promise<T> {
  const response = await pool.request({
    path: `${basePath}/v1/${operation}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
    body: JSON.stringify(body),
  });
  const parsed = (await response.body.json()) as { status?: string; result?: T } & T;
  if (response.statusCode !== 200 || parsed.status !== 'success') {
    throw new Error(`${operation} answered HTTP ${response.statusCode}: ${JSON.stringify(parsed).slice(0, 200)}`);
  }
  return parsed;
}

const percent = new Intl.NumberFormat('ru-RU', { style: 'percent', maximumFractionDigits: 2 });
const roubles = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 });
const dollars = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });

function discountLabel(d: Details): string {
  if (d.discountType === 'percent') return percent.format(Number(d.discountAmount) / 100);
  if (d.discountType === 'fix') return (d.discountCurrency === 840 ? dollars : roubles).format(Number(d.discountAmount));
  return d.discountAmount;
}

function card(d: Details) {
  return {
    title: d.merchantName,
    description: d.description,
    conditions: d.conditions,
    discountLabel: discountLabel(d),
    logoSvgUrl: d.merchantLogoSvg,
    logoPngUrl: d.merchantLogoPng,
    backgroundColor: d.backgroundColor,
    fontColor: d.fontColor,
    backgroundImageUrl: d.backgroundImage ?? null,
    actionUrl: d.acceptUrl ?? null,
  };
}

async function listCards(authorization: string): Promise<string> {
  const page = await call<{ campaigns: { ymCampaignId: number }[] }>('campaigns/get-all-campaigns', authorization, {
    limit: pageSize,
    offset: 0,
  });
  const details = await Promise.all(
    page.campaigns.map((c) => call<{ result: Details }>('campaigns/get', authorization, { ymCampaignId: c.ymCampaignId })),
  );
  return JSON.stringify({ data: { campaigns: { nodes: details.map((d) => ({ card: card(d.result) })) } } });
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.on('data', () => {});
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/healthz') return answer(res, 200, '{"ok":true}');
    const authorization = req.headers.authorization;
    if (!authorization) return answer(res, 401, '{"error":"send Authorization: Bearer <partner token>"}');
    listCards(authorization).then(
      (body) => answer(res, 200, body),
      (error: unknown) => answer(res, 502, JSON.stringify({ error: (error as Error).message })),
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`rest-floor-server listening on http://127.0.0.1:${port} (backend ${backend.origin}, ${connections} connections)\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => void pool.close().finally(() => process.exit(0)));
  });
}
