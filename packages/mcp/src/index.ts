export { createMcpServer, type McpRoute, type McpServerOptions } from './mcp-server.js';
export { serveMcpStdio, TOKEN_ENV } from './stdio.js';
export { toolError, toolSuccess, type ToolResult } from './tool-result.js';
