export { createApp, DEFAULT_BODY_LIMITS, type AppOptions } from './app.js';
export { startServer, type RunningServer, type ServeOptions } from './serve.js';
export { openApiDocument } from './openapi.js';
export { DEFAULT_RATE_LIMITS, RateLimiter, SlidingWindow, type RateLimits } from './rate-limit.js';
export { STATUS_OF, statusOf } from './status.js';
