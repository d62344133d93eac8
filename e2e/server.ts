// The global setup of the browser journeys: one store with the default test gateway for all of
// them, stopped afterwards. A journey that needs another configuration starts its own (store-process.ts).
import type { TestProject } from 'vitest/node';
import { startStore, type StoreProcess } from './store-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let store: StoreProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  store = await startStore();
  project.provide('baseUrl', store.baseUrl);
}

export async function teardown(): Promise<void> {
  await store?.stop();
}
