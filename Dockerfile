# One image, two roles: `npm run start:web` or `npm run start:api` (see README, "Deployed").
# Build with the docker format (`podman build --format docker`): the OCI format drops HEALTHCHECK.
# The Node line is the project's (.nvmrc), passed in: `--build-arg NODE_VERSION=$(cat .nvmrc)`.
# Build stage compiles better-sqlite3 from source (prebuilt downloads are not assumed).
ARG NODE_VERSION
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 API_PORT=3001
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/package.json ./package.json
# The api's SQLite file, outbox and uploaded card photos (UPLOAD_DIR) live here unless PostgreSQL and S3 are set.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000 3001
# Alive: the web's /healthz on PORT, or (run as the api) the api's /healthz on API_PORT.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "const get=(p)=>fetch('http://127.0.0.1:'+p+'/healthz').then((r)=>r.ok);get(process.env.PORT).catch(()=>false).then((ok)=>ok||get(process.env.API_PORT)).then((ok)=>process.exit(ok?0:1),()=>process.exit(1))"
# Web by default (`npm run start:web` without npm: node is PID 1 and gets SIGTERM itself, and npm
# would want to write its logs to the read-only root). The api: docker run … cardlane node build/api.js
# — in production it needs DATABASE_URL, TRUST_PROXY, MAIL_TRANSPORT/SMTP_URL, PIN_PEPPER and
# CODES_KEY (README, "Deployed").
CMD ["node", "--max-semi-space-size=32", "--max-old-space-size=256", "build/server.js"]
