/**
 * A stream whose start was read to decide something (is this page data? where does `<head>` end?) and is
 * put back: the chunks already read come first, the rest streams on from the same reader, and cancelling
 * the result cancels the source. The one definition of "peek without losing streaming", used by the
 * renderer (rendered-head.ts) and the browser's page-data check (navigation/page-data.ts).
 */
export function streamWithPeeked(
  peeked: readonly Uint8Array[],
  rest: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of peeked) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return rest.cancel(reason);
    },
  });
}
