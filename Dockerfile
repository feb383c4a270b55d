# Tenpo's image (docs/deploy.md, ADR 0057). One image, its role chosen by the command:
#   API (default)  node apps/api/dist/server.mjs   (TENPO_WORKER=false beside worker processes)
#   worker         node apps/api/dist/worker.mjs
#   sandbox        node apps/api/dist/sandbox.mjs   (staging demos: the emulators, one process)
#   one-shot jobs  npm run migrate, npm run backup, …
# Long-running roles run node directly, not through npm: npm passes SIGTERM to a shell that does
# not pass it on, so the process would be killed without its drain window.
#
# BASE is any glibc Debian-like image. Node.js is not taken from it: it is the node-linux-<cpu>
# package that package-lock.json pins (ADR 0013), so the image runs the Node.js the tests ran.
# Machines without a registry pass a local base: --build-arg BASE=localhost/debian:bookworm-minbase
# Behind a TLS-intercepting proxy, mount its CA bundle into the build and name it:
#   -v /etc/ssl/certs/ca-certificates.crt:/run/extra-ca.pem:ro --build-arg NODE_EXTRA_CA_CERTS=/run/extra-ca.pem
# (build arguments reach RUN steps as environment variables and stay out of the final image).
ARG BASE=debian:bookworm-slim

# Node.js and npm for the build stages, checked against the lock file (deploy/bootstrap-node.sh).
FROM ${BASE} AS toolchain
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ARG NPM_REGISTRY=https://registry.npmjs.org
ARG NPM_VERSION=11.19.1
ARG NPM_INTEGRITY=sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==
ARG NODE_EXTRA_CA_CERTS
ENV npm_config_registry=${NPM_REGISTRY} npm_config_update_notifier=false
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package-lock.json deploy/bootstrap-node.sh ./
RUN sh bootstrap-node.sh "$NPM_REGISTRY" "$NPM_VERSION" "$NPM_INTEGRITY" && rm bootstrap-node.sh
# The manifests alone first, so the dependency layers are reused until they change.
COPY package.json .npmrc ./
COPY packages/domain/package.json packages/domain/
COPY apps/sandbox/package.json apps/sandbox/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/

# Everything installed, then `npm run build`: the web app (Vite) and the server bundles (esbuild).
FROM toolchain AS build
ARG NODE_EXTRA_CA_CERTS
RUN npm ci
COPY . .
RUN npm run build \
 && mkdir /out \
 && cp -a --parents package.json package-lock.json .npmrc scripts apps/api/assets \
      $(ls -d apps/*/package.json packages/*/package.json e2e/package.json apps/*/dist packages/*/dist 2>/dev/null) \
      /out/

# Production dependencies of the server (the API, and the sandbox it imports) only: the web app's
# are in its bundle. Node.js's C headers serve only to compile addons, which nothing does here.
FROM toolchain AS deps
ARG NODE_EXTRA_CA_CERTS
RUN npm ci --omit=dev --workspace @tenpo/api --include-workspace-root \
 && rm -rf node_modules/node-linux-*/include node_modules/node-linux-*/share

FROM ${BASE} AS runtime
# node_modules/.bin first: `node` is the lock's Node.js, as under `npm start`.
ENV PATH=/app/node_modules/.bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    DATA_DIR=/data \
    npm_config_update_notifier=false
RUN useradd --system --user-group --create-home --home-dir /home/tenpo --shell /usr/sbin/nologin tenpo \
 && mkdir /data \
 && chown tenpo:tenpo /data
# npm, for the one-shot scripts (`npm run migrate`); it runs on node_modules/.bin/node.
COPY --from=toolchain /opt/npm /opt/npm
COPY --from=toolchain /usr/local/bin/npm /usr/local/bin/npm
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /out/ ./
USER tenpo
# 3000 the API (PORT), 3001 a worker's health (WORKER_HEALTH_PORT), 4010 and 2525 the sandbox
# (SANDBOX_PORT, SANDBOX_SMTP_PORT). Orchestrators probe /api/health/live and /ready: no
# HEALTHCHECK here, which would run on every container whatever its role.
EXPOSE 3000 3001 4010 2525
CMD ["node", "apps/api/dist/server.mjs"]
