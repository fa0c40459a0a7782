/**
 * The part of `node:async_hooks` the Worker uses; workerd provides it under the `nodejs_compat` flag.
 * Declared here rather than pulling all of @types/node into the Worker's and the app's types.
 */
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}
