import { connectToWorker } from "./worker-inspector.ts";

/**
 * The V8 heap of the app's isolate in workerd, read over the DevTools protocol (serveBuild's
 * `inspectorPort`): what the Worker itself holds, apart from workerd's and Miniflare's own memory.
 * workerd does not answer HeapProfiler.collectGarbage, so the figure includes garbage not yet collected;
 * read it after a quiet moment.
 */
export async function isolateHeapMiB(inspectorPort: number): Promise<{ usedMiB: number; totalMiB: number }> {
  const inspector = await connectToWorker(inspectorPort);
  try {
    const { usedSize = 0, totalSize = 0 } = (await inspector.call("Runtime.getHeapUsage")) as {
      usedSize?: number;
      totalSize?: number;
    };
    return { usedMiB: usedSize / 2 ** 20, totalMiB: totalSize / 2 ** 20 };
  } finally {
    inspector.close();
  }
}
