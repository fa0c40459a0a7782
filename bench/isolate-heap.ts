/**
 * The V8 heap of the app's isolate in workerd, read over the DevTools protocol (serveBuild's
 * `inspectorPort`): what the Worker itself holds, apart from workerd's and Miniflare's own memory.
 * workerd does not answer HeapProfiler.collectGarbage, so the figure includes garbage not yet collected;
 * read it after a quiet moment.
 */
export async function isolateHeapMiB(inspectorPort: number): Promise<{ usedMiB: number; totalMiB: number }> {
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
  const call = (method: string) =>
    new Promise<Record<string, number>>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 10_000);
      socket.addEventListener("message", function onMessage(event) {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, number> };
        if (message.id !== id) return;
        clearTimeout(timer);
        socket.removeEventListener("message", onMessage);
        resolve(message.result ?? {});
      });
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    const { usedSize = 0, totalSize = 0 } = await call("Runtime.getHeapUsage");
    return { usedMiB: usedSize / 2 ** 20, totalMiB: totalSize / 2 ** 20 };
  } finally {
    socket.close();
  }
}
