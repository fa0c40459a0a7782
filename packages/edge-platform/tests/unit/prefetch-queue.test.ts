import { describe, expect, test } from "vitest";
import { PrefetchQueue } from "../../src/navigation/prefetch-queue";

/** A task that finishes only when the test says so. */
function held() {
  let release: () => void = () => {};
  let fail: (error: Error) => void = () => {};
  const started = { value: false };
  const run = () => {
    started.value = true;
    return new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
  };
  return { run, started, release: () => release(), fail: (error: Error) => fail(error) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("PrefetchQueue", () => {
  test("held, it starts no queued request until every hold is released; a promoted one starts at once", async () => {
    const queue = new PrefetchQueue(5);
    const release = queue.hold();
    const second = queue.hold();
    const tasks = Array.from({ length: 3 }, () => held());
    for (const [index, task] of tasks.entries()) queue.enqueue(`t${index}`, task.run);
    await tick();
    expect(tasks.map((task) => task.started.value)).toEqual([false, false, false]);
    expect(queue.held).toBe(true);
    queue.promote("t2");
    await tick();
    expect(tasks.map((task) => task.started.value)).toEqual([false, false, true]);
    release();
    release();
    await tick();
    expect(tasks[0]?.started.value, "one hold is still on").toBe(false);
    second();
    await tick();
    expect(tasks.map((task) => task.started.value)).toEqual([true, true, true]);
    expect(queue.held).toBe(false);
  });

  test("whenReleased runs a task at once when nothing holds the queue, else once the last hold is released", () => {
    const queue = new PrefetchQueue(5);
    const ran: string[] = [];
    queue.whenReleased(() => ran.push("free"));
    expect(ran).toEqual(["free"]);
    const release = queue.hold();
    const second = queue.hold();
    queue.whenReleased(() => ran.push("later"));
    release();
    release();
    expect(ran, "one hold is still on").toEqual(["free"]);
    second();
    expect(ran).toEqual(["free", "later"]);
    queue.hold()();
    expect(ran, "each task runs once").toEqual(["free", "later"]);
  });

  test("never runs more than its concurrency at once, and runs every request", async () => {
    const queue = new PrefetchQueue(5);
    const tasks = Array.from({ length: 12 }, () => held());
    const done = tasks.map((task, index) => queue.enqueue(`t${index}`, task.run));
    await tick();
    expect(tasks.filter((task) => task.started.value)).toHaveLength(5);
    expect(queue.inFlightCount).toBe(5);
    expect(queue.queuedCount).toBe(7);
    for (let round = 0; round < 12; round++) {
      for (const task of tasks) if (task.started.value) task.release();
      await tick();
      expect(queue.inFlightCount).toBeLessThanOrEqual(5);
    }
    await Promise.all(done);
    expect(tasks.every((task) => task.started.value)).toBe(true);
    expect(queue.mostInFlight).toBe(5);
  });

  test("starts queued requests in the order they came", async () => {
    const queue = new PrefetchQueue(1);
    const order: string[] = [];
    const first = held();
    queue.enqueue("first", first.run);
    for (const key of ["a", "b", "c"]) {
      queue.enqueue(key, async () => {
        order.push(key);
      });
    }
    await tick();
    first.release();
    await queue.enqueue("last", async () => {
      order.push("last");
    });
    expect(order).toEqual(["a", "b", "c", "last"]);
  });

  test("moving keys ahead puts them first, in the given order, still within the limit", async () => {
    const queue = new PrefetchQueue(1);
    const order: string[] = [];
    const first = held();
    queue.enqueue("first", first.run);
    for (const key of ["a", "b", "c", "d"]) {
      queue.enqueue(key, async () => {
        order.push(key);
      });
    }
    queue.moveAhead(["d", "c", "unknown", "first"]);
    await tick();
    expect(queue.inFlightCount).toBe(1);
    expect(order).toEqual([]);
    first.release();
    await queue.enqueue("last", async () => {
      order.push("last");
    });
    expect(order).toEqual(["d", "c", "a", "b", "last"]);
    expect(queue.mostInFlight).toBe(1);
  });

  test("does not make a queued or running request twice", async () => {
    const queue = new PrefetchQueue(1);
    const running = held();
    let runs = 0;
    const a = queue.enqueue("same", running.run);
    const b = queue.enqueue("same", async () => {
      runs++;
    });
    expect(b).toBe(a);
    await tick();
    running.release();
    await a;
    expect(runs).toBe(0);
  });

  test("a finished request can be made again (freshness is the caller's decision)", async () => {
    const queue = new PrefetchQueue(1);
    let runs = 0;
    await queue.enqueue("x", async () => {
      runs++;
    });
    await queue.enqueue("x", async () => {
      runs++;
    });
    expect(runs).toBe(2);
  });

  test("promoting a queued request starts it at once, outside the prefetch limit", async () => {
    const queue = new PrefetchQueue(1);
    const blocking = held();
    const wanted = held();
    queue.enqueue("blocking", blocking.run);
    const promise = queue.enqueue("wanted", wanted.run);
    await tick();
    expect(wanted.started.value).toBe(false);
    expect(queue.promote("wanted")).toBe(promise);
    await tick();
    expect(wanted.started.value).toBe(true);
    expect(queue.inFlightCount).toBe(1);
    wanted.release();
    blocking.release();
    await promise;
  });

  test("promoting a request that is not known returns nothing", () => {
    expect(new PrefetchQueue(1).promote("nothing")).toBeUndefined();
  });

  test("a failed request frees its slot and rejects only its own promise", async () => {
    const queue = new PrefetchQueue(1);
    const failing = held();
    const failed = queue.enqueue("fails", failing.run);
    const next = queue.enqueue("next", async () => {});
    await tick();
    failing.fail(new Error("404"));
    await expect(failed).rejects.toThrow("404");
    await expect(next).resolves.toBeUndefined();
    expect(queue.inFlightCount).toBe(0);
  });
});
