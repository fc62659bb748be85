# The gateway as one image: docker-compose.yml runs two replicas of it behind a proxy (README, "Several replicas").
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY src ./src
COPY tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY . .
EXPOSE 4000
# node is PID 1 itself: docker stop's SIGTERM reaches the process that drains, and it leaves no orphans to reap.
CMD ["node", "--import", "tsx", "src/server.ts"]
