import { ApolloLink, HttpLink } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { isSubscriptionOperation } from '@apollo/client/utilities';
import { createClient, type Client } from 'graphql-ws';

/**
 * The link of a partner's screens: queries and mutations over HTTP (`POST /graphql`), subscriptions
 * (`campaignChanged`) over GraphQL over WebSocket (graphql-ws, at the same path), both with the
 * partner token. The server takes only subscriptions on the WebSocket and refuses subscriptions
 * over HTTP, so the split is by operation type.
 */
export interface LinkOptions {
  /** The GraphQL endpoint, such as `http://localhost:4000/graphql`. */
  uri: string;
  /** The partner token (`Authorization: Bearer <token>` on HTTP, the `connection_init` payload on the WebSocket). */
  token: string;
  /** The WebSocket endpoint; by default `uri` with `ws:`/`wss:`. */
  wsUri?: string;
  /** A WebSocket implementation where there is no global one (Node before 22: the `ws` package). */
  webSocketImpl?: unknown;
}

export interface KitLink {
  link: ApolloLink;
  /** The graphql-ws client: `dispose()` it when the app signs out. */
  ws: Client;
}

export function createLink(options: LinkOptions): KitLink {
  const ws = createClient({
    url: options.wsUri ?? options.uri.replace(/^http/, 'ws'),
    // Sent in `connection_init`; browsers cannot set headers on a WebSocket.
    connectionParams: { authorization: `Bearer ${options.token}` },
    // The socket opens with the first subscription and closes a moment after the last one.
    lazy: true,
    ...(options.webSocketImpl ? { webSocketImpl: options.webSocketImpl } : {}),
  });
  const link = ApolloLink.split(
    ({ query }) => isSubscriptionOperation(query),
    new GraphQLWsLink(ws),
    new HttpLink({ uri: options.uri, headers: { authorization: `Bearer ${options.token}` } }),
  );
  return { link, ws };
}
