import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `.local/stack.json`: where the running `npm start` keeps its data — its DynamoDB endpoint and
 * table names — so that the operator CLI and the migration reach that stack, whatever port it was
 * given. Written whole once the server is up, removed when it stops.
 */
export interface StackFile {
  dynamodb_endpoint: string;
  table_name: string;
  metrics_table_name: string;
  base_url: string;
}

export const stackFilePath = (cwd = process.cwd()): string => join(cwd, '.local', 'stack.json');

/**
 * The DynamoDB a local tool should use, and where that came from: DYNAMODB_ENDPOINT when set, else
 * the running stack's (`.local/stack.json`, whose table names apply unless TABLE_NAME /
 * METRICS_TABLE_NAME are set), else DynamoDB Local on DYNAMODB_PORT or 8000.
 */
export function localDynamo(cwd = process.cwd()): { endpoint: string; source: string } {
  if (process.env.DYNAMODB_ENDPOINT) return { endpoint: process.env.DYNAMODB_ENDPOINT, source: 'DYNAMODB_ENDPOINT' };
  let stack: Partial<StackFile> | undefined;
  try {
    stack = JSON.parse(readFileSync(stackFilePath(cwd), 'utf8')) as Partial<StackFile>;
  } catch {
    stack = undefined; // no running npm start here (or an unreadable file): the default port
  }
  if (stack?.dynamodb_endpoint) {
    if (stack.table_name) process.env.TABLE_NAME ||= stack.table_name;
    if (stack.metrics_table_name) process.env.METRICS_TABLE_NAME ||= stack.metrics_table_name;
    return { endpoint: stack.dynamodb_endpoint, source: `${join('.local', 'stack.json')}, written by the running npm start` };
  }
  const port = process.env.DYNAMODB_PORT ?? '8000';
  return { endpoint: `http://localhost:${port}`, source: `no running npm start found (.local/stack.json), so DynamoDB Local on port ${port}` };
}
