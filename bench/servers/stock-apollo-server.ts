import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

/**
 * Stock Apollo Server 5 as its documentation starts it (startStandaloneServer, default options),
 * serving the same categories from memory: the reference for "faster than stock Apollo". It
 * answers `categories { id name }` with the same bytes as the BFF's warm answer (CATEGORIES_BODY).
 */

const port = Number(process.env.PORT ?? '0');
const body = process.env.CATEGORIES_BODY;
if (body === undefined || body === '') {
  process.stderr.write('stock-apollo-server: CATEGORIES_BODY must hold the BFF\'s categories answer\n');
  process.exit(2);
}
const categories = (JSON.parse(body) as { data: { categories: { id: string; name: string }[] } }).data.categories;

const server = new ApolloServer({
  typeDefs: `#graphql
    type Category { id: ID! name: String! }
    type Query { categories: [Category!]! }
  `,
  resolvers: { Query: { categories: () => categories } },
});
const { url } = await startStandaloneServer(server, { listen: { port, host: '127.0.0.1' } });
process.stdout.write(`stock Apollo Server listening on ${url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void server.stop().finally(() => process.exit(0)));
}
