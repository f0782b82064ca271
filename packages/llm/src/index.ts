export { chatEndpointFromEnv, routeUrl, type ModelEndpoint } from './endpoint.js';
export { postJson, type PostResult } from './http.js';
export { chatCompletion, type ChatMessage, type ChatOptions, type ChatResult } from './chat.js';
