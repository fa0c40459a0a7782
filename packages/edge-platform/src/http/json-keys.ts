/**
 * Whether some object in a JSON text names a key twice (`{"dsn":"a","dsn":"b"}`, or `"dsn"` and
 * `"\u0064sn"`, the same key once decoded). `JSON.parse` keeps the last value; another parser may keep the
 * first or refuse the text, so what a check read and what the reader behind it reads could differ. RFC 8259
 * leaves such texts' meaning open and I-JSON (RFC 7493) forbids them. `text` must already be valid JSON.
 */
export function hasRepeatedKey(text: string): boolean {
  // The keys seen in each open object; null for an open array.
  const open: (Set<string> | null)[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "{") open.push(new Set());
    else if (char === "[") open.push(null);
    else if (char === "}" || char === "]") open.pop();
    else if (char === '"') {
      const end = stringEnd(text, index);
      const keys = open.at(-1);
      // In valid JSON, a string followed by a colon is an object's key.
      if (keys && nextNonSpace(text, end + 1) === ":") {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
      }
      index = end;
    }
  }
  return false;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index;
}

function nextNonSpace(text: string, from: number): string | undefined {
  let index = from;
  while (index < text.length && " \t\n\r".includes(text[index] as string)) index++;
  return text[index];
}
