/**
 * The app's isolate in workerd, over the DevTools protocol (serveBuild's `inspectorPort`), for the
 * benchmarks that look inside it (isolate-heap.ts, profile.ts).
 */
export type WorkerInspector = {
  call(method: string, params?: object): Promise<Record<string, unknown>>;
  close(): void;
};

export async function connectToWorker(inspectorPort: number): Promise<WorkerInspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    title: string;
    webSocketDebuggerUrl: string;
  }[];
  // Miniflare names the user's Worker `core:user:<name>`; this project's Worker has no name of its own.
  const target = targets.find((candidate) => /worker core:user:/.test(candidate.title));
  if (!target) throw new Error("the app's isolate is not among the inspector's targets");
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  return {
    call(method, params = {}) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 30_000);
        socket.addEventListener("message", function onMessage(event) {
          const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
          if (message.id !== id) return;
          clearTimeout(timer);
          socket.removeEventListener("message", onMessage);
          resolve(message.result ?? {});
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}
