# Multi-stage: ffmpeg in a stage of its own, a build stage with the production dependencies and the
# build's tools, and the image: the production dependencies and the bundles (dist/) on the first.

# The runtime's system packages, in a stage of their own that comes first. ffmpeg: the recorder
# composes and encodes recordings with it (Debian's package; without it every recording is the
# sample file). The package's own image (container/Dockerfile) starts with the same two lines, so
# whichever is built first makes this layer and the other takes it from the build cache.
FROM node:20-bookworm-slim AS runtime
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Only the production dependencies and the build's own tools (scripts/image-build-deps.mjs), at the
# lockfile's versions. --ignore-scripts: `prepare` builds, and the sources are not here yet; the
# build is the step below.
COPY scripts/image-build-deps.mjs ./scripts/
RUN node scripts/image-build-deps.mjs && npm install --ignore-scripts --no-audit --no-fund
# The patches to dependencies (patches/, made with patch-package), which `postinstall` applies
# elsewhere: the install above runs no scripts.
COPY patches ./patches
RUN node patches/apply-patches.mjs
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build-ui.mjs scripts/content-hash.mjs scripts/launcher.mjs ./scripts/
COPY container/warm-up.mjs ./container/
COPY src ./src
# What the image runs is the bundled command line, the media plane's bundle and the dashboard, all
# made by esbuild from the sources: the library's compiled modules and declarations (tsc, the rest
# of `npm run build`) are for projects that import the package, not for the image.
RUN node scripts/build.mjs && npm prune --omit=dev --no-audit --no-fund

FROM runtime
# The TLS listener (the web SDK's hosts) on 4443 too, on every interface of the container: publish
# it as -p 4443:4443, and the certificate made inside names localhost, which the host reaches.
# Media on 4710, UDP (and TCP for pages that cannot send UDP), one port for every transport: publish
# it as -p 4710:4710/udp (and -p 4710:4710/tcp), and the pages are told to send to 127.0.0.1:4710,
# the host's loopback, where the mapping takes it; EMULATOR_MEDIA_ANNOUNCE names another address
# when the browser reaches the container elsewhere (another machine, a container beside it).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4700 \
    EMULATOR_TLS_PORT=4443 \
    EMULATOR_MEDIA_PORT=4710 \
    EMULATOR_MEDIA_ANNOUNCE=127.0.0.1
WORKDIR /app
COPY --chown=node:node package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node fixtures ./fixtures
COPY --chown=node:node proto ./proto
# The documentation pages the landing page links to (GET /_emulator/docs/<page>.md).
COPY --chown=node:node docs/*.md ./docs/
USER node
EXPOSE 4700 4443 4710/udp 4710/tcp 1935 1936
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4700)+'/_emulator/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 through the image's entrypoint (exec), so SIGTERM reaches the server directly.
# The bundled command line (scripts/build.mjs): one file to load, so the container is up sooner.
CMD ["node", "dist/bin/meetings-emulator.js"]
