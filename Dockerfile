# The gateway as one image: docker-compose.yml runs two replicas of it behind a proxy (README, "Several replicas").
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY src ./src
COPY tsconfig.json ./
# npm 11.16 or later applies package.json's allowScripts; the image's npm 10 would run every dependency's install
# script (better-sqlite3's node-gyp, which wants Python, and Prisma's engine download).
RUN npm install -g npm@11.19.1 --no-audit --no-fund && npm ci --no-audit --no-fund
COPY . .
EXPOSE 4000
# node is PID 1 itself: docker stop's SIGTERM reaches the process that drains, and it leaves no orphans to reap.
CMD ["node", "--import", "tsx", "src/server.ts"]
