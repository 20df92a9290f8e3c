import type { TestProject } from 'vitest/node';
import { startPgCluster } from './pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgBaseUrl: string;
  }
}

/** One PostgreSQL cluster for the whole run; each test server gets its own database in it. */
export default async function setup(project: TestProject) {
  const cluster = await startPgCluster();
  project.provide('pgBaseUrl', cluster.url('postgres'));
  return () => cluster.stop();
}
