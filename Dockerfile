# syntax=docker/dockerfile:1

# The current Node.js LTS. The code also runs on Node.js 20.19, 22.13 or 24.11 and later (see `engines`).
ARG NODE_IMAGE=node:26-trixie-slim

# Build: all dependencies (the dashboard's too, by the install's postinstall), compile TypeScript and build the
# dashboard, then drop the development ones.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY dashboard/package.json dashboard/package-lock.json ./dashboard/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY docs/openapi.json ./docs/openapi.json
COPY dashboard ./dashboard
# Optional dependencies go too: in production they are only TypeScript (an optional peer of @nestjs/swagger, for its
# build plugin, kept by --omit=dev because the build installs it) and pg's socket for Cloudflare Workers.
RUN npm run build && npm prune --omit=dev --omit=optional --no-audit --no-fund

# Run: production dependencies and the compiled code only, as the unprivileged `node` user. No VOLUME: the
# embedded database's DATA_DIR is only used without DATABASE_URL, and whoever wants it kept mounts it by name.
FROM ${NODE_IMAGE}
# The metrics port listens on every interface of the container: reachable from its private network only,
# unless published (compose publishes it nowhere). The JavaScript heap has a ceiling of 1.5 GB: with none, on a
# host of several GB, V8 lets the old generation grow to four times what is live before it collects, and a service
# holding about 50 MB peaked at 306-341 MB under creates; below 2 GB it grows by less than twice, and the same load
# peaked at 200-209 MB for the same CPU per create. A smaller ceiling keeps less still but collects more often (384
# MB: 181-187 MB peak, 15-25% more CPU per create). Figures in docs/PERFORMANCE.md; NODE_OPTIONS overrides it.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-old-space-size=1536 \
    PORT=3000 \
    METRICS_HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/dashboard/dist ./dashboard/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 9464
# The one health check of the image: it follows PORT, wherever the service is told to listen.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
