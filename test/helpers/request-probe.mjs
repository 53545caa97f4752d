// Preloaded (`node --import`) into a built entry: one line on stderr each time one of its HTTP
// servers starts serving a request and each time it finishes an answer, in the order they happen:
//   request-probe start GET /healthz
//   request-probe finish GET /healthz
import { subscribe } from 'node:diagnostics_channel';

const line = (event) => ({ request }) => process.stderr.write(`request-probe ${event} ${request.method} ${request.url}\n`);
subscribe('http.server.request.start', line('start'));
subscribe('http.server.response.finish', line('finish'));
