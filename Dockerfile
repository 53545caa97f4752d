# The production image of the Campaign GraphQL BFF: node running the prebuilt dist/ with the
# production dependencies only, as a non-root user, under tini.
#
#   docker build -t campaign-bff:$(node -p "require('./package.json').version") --build-arg BUILD_COMMIT=$(git rev-parse HEAD) .
#   docker run --rm --stop-timeout 30 -p 4000:4000 -p 9464:9464 --read-only \
#     -e CAMPAIGN_API_URL=https://partner-api.example.com/api campaign-bff:1.0.0
#
# --stop-timeout: on SIGTERM the process serves SHUTDOWN_DELAY_MS (6 s) more, then gives requests
# in flight SHUTDOWN_GRACE_MS (10 s) and exports its last spans (5 s at most); Docker's default of
# 10 s would kill it mid-request (exit code 137).
#
# A registry of your own, its CA and its credentials reach `npm ci` as BuildKit secrets, mounted
# for that command alone and never written to a layer (docs/operations.md, "The image"):
#   docker build --secret id=npmrc,src=$HOME/.npmrc --secret id=npm_ca,src=/path/to/ca.pem ...
# `npmrc` is an .npmrc (registry=..., //host/:_authToken=...); `npm_ca` a PEM file of the
# CA that signed the registry's certificate. Either may be left out.
#
# Every stage starts from the same official image, pinned to a Node 24 (active LTS) release. For
# reproducible builds pin its digest too, as the registry you pull from reports it
# (`docker buildx imagetools inspect node:24.21.0-trixie-slim`):
#   FROM node:24.21.0-trixie-slim@sha256:<digest> AS build
# and let a dependency bot move version and digest together.

# Build: every dependency (TypeScript tooling, esbuild), then `npm run build` compiles src/ to dist/
# (and bundles the development explorer into dist/public/, which the runtime stage leaves out).
FROM node:24.21.0-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc,required=false --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi \
 && NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/build-explorer.mjs ./scripts/
COPY explorer ./explorer
COPY schema ./schema
COPY src ./src
RUN npm run build

# Runtime: the production dependencies and the built service, nothing else (no sources, no dev
# dependencies, no build at start-up, no development explorer: production never serves it).
FROM node:24.21.0-trixie-slim AS runtime

# tini is PID 1: it passes SIGTERM on to node and reaps any process that ends orphaned.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts run: the one production dependency that has one (@apollo/protobufjs) needs it
# neither at run time nor to load.
RUN --mount=type=secret,id=npmrc,required=false --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi \
 && NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force
# The compiled service and the schema it reads; not dist/public/ (the explorer's bundle) nor the
# kit's manifest, which only the embedded emulator of development serves.
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/schema ./dist/schema

# What the build was made from, declared after the last RUN: every RUN after an ARG sees it, so a
# new commit would otherwise install everything again. BUILD_COMMIT (7-40 hex digits, as `git
# rev-parse HEAD` gives it) reaches the process, which shows it as the `commit` label of
# bff_build_info; left empty by a build that does not pass it, which the process reads as unset.
# The version is the release's, as package.json (and so bff_build_info) says it: written here, not
# passed, so that no build labels an image with another (test/unit/versions.test.ts).
ARG BUILD_COMMIT=
LABEL org.opencontainers.image.title="campaign-graphql-bff" \
      org.opencontainers.image.description="GraphQL facade and backend-for-frontend over the Offer Campaign partner REST API v1" \
      org.opencontainers.image.version="1.0.0" \
      org.opencontainers.image.revision="${BUILD_COMMIT}" \
      org.opencontainers.image.base.name="docker.io/library/node:24.21.0-trixie-slim"
ENV BUILD_COMMIT=${BUILD_COMMIT}

# The files stay root's and read-only to the process; it writes nothing at run time, so the
# root filesystem can be mounted read-only (`docker run --read-only`, Kubernetes'
# readOnlyRootFilesystem). A numeric user, so that Kubernetes' runAsNonRoot can check it
# (`node`, uid 1000 in the official image).
USER 1000:1000

# The API (PORT) and Prometheus' /metrics (METRICS_PORT), a listener of its own.
EXPOSE 4000 9464

# No HEALTHCHECK: Kubernetes ignores it (its probes call /healthz and /readyz), the OCI image
# format has no field for it, and the image has no curl, so each check would start a second node.
# Under Docker Compose give the service a healthcheck there if you need one.

# node itself receives SIGTERM (through tini), drains and exits 0: not `npm start` (which builds
# first) nor a shell.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "dist/src/main.js"]
