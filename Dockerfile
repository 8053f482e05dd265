# Reelgraph in one image: the API (with the embedded sync server and job workers) serving the
# built web app; the same image runs standalone sync servers and job workers (docker-compose.yml).
# The server is TypeScript run directly by Node 24 (type stripping): only web/ is built.
#
#   docker build -t reelgraph .
#   docker compose up            # with Postgres, Redis and an S3 store: see docker-compose.yml
#
# The image runs with NODE_ENV=production: the app refuses to start without a way to send
# email (SMTP_URL, or MAIL_TO_FILES=true) and billing (STRIPE_SECRET_KEY, or
# BILLING_SANDBOX=true), and a real deployment sets APP_URL and DATABASE_URL too
# (.env.example lists every setting).

# ---- deps: every package, to build the web app -------------------------------------------
FROM node:24-slim AS deps
WORKDIR /app
# Manifests only, so this layer is rebuilt only when dependencies change. npm needs the
# package.json of every workspace the root package.json lists (e2e's and bench's too).
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY db/package.json db/
COPY api/package.json api/
COPY sync-server/package.json sync-server/
COPY media/package.json media/
COPY worker/package.json worker/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund

# ---- prod-deps: what the server imports at run time --------------------------------------
# The server's packages are all `dependencies` of shared, db, api and sync-server; the
# devDependencies (vite and its plugins, typescript, vitest, eslint, prettier, playwright, and the `node`
# runtime package, which the image's own Node replaces) are only for building and testing.
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

# ---- build: the web app into web/dist ----------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build -w web

# ---- runtime -----------------------------------------------------------------------------
FROM node:24-slim AS runtime
WORKDIR /app
# ffmpeg renders videos (media/src/render); Debian's, as in CI.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000
# node_modules and every package.json (the root one's "type": "module" makes the .ts files ESM).
COPY --from=prod-deps /app ./
# Sources on top (.dockerignore keeps node_modules out, so nothing npm put there is replaced).
COPY shared shared
COPY db db
COPY api api
COPY sync-server sync-server
COPY media media
COPY worker worker
COPY scripts scripts
# scripts/start.ts serves web/dist and, in production, never builds it.
COPY --from=build /app/web/dist web/dist
# Embedded state (PGlite when DATABASE_URL is unset, mail files, assets) lives in /app/data.
RUN mkdir -p data && chown node:node data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "scripts/start.ts"]
