# Switchyard in a container: `docker build -t switchyard .`, then
# `docker run -p 8080:8080 -v switchyard-data:/data switchyard` (embedded store in the volume), or
# with DATABASE_URL and SWITCHYARD_SERVICE_TOKEN for PostgreSQL (compose.yaml).
# test/cli/dockerfile.test.ts runs the RUN, HEALTHCHECK and start commands below in order in a
# clean copy of the repository (this machine has no Docker engine).
FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SWITCHYARD_DATA_DIR=/data

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY . .
# The data volume belongs to the unprivileged user the server runs as.
RUN mkdir -p "$SWITCHYARD_DATA_DIR" && chown node:node "$SWITCHYARD_DATA_DIR"

USER node
VOLUME /data
EXPOSE 8080

# Ready means storage answers; a first start initialises the embedded store (20 to 30 s).
HEALTHCHECK --interval=15s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node is PID 1 and receives SIGTERM itself: requests drain, the store closes, exit 0.
ENTRYPOINT ["node", "bin/switchyard.mjs"]
CMD ["serve"]
