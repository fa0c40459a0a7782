import { data } from "react-router";
import { type BodyLimits, readLimitedBody } from "./read-limited-body";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The submitted form, or a thrown 4xx with a plain message: 415 for anything but a form encoding, 413
 * above the size limit, 408 for a body that stalls, 400 for one that does not parse or is not UTF-8.
 * Never a 500 for bad input, and never a value silently changed (no U+FFFD substituted for bad bytes).
 */
export async function readFormData(request: Request, limits: BodyLimits): Promise<FormData> {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    throw data(`Unsupported Media Type: send the form as ${FORM_TYPES.join(" or ")}.`, { status: 415 });
  }
  const read = await readLimitedBody(request, limits);
  if (!read.ok) throw data(read.message, { status: read.status });
  const text = strictUtf8(read.body);
  if (text === undefined) throw data("Bad Request: the form is not valid UTF-8.", { status: 400 });
  // Multipart bodies are checked whole: the app's forms carry text fields only (a file field would need
  // its own reader).
  const form = type === FORM_TYPES[0] ? parseUrlEncoded(text) : await parseMultipart(request, read.body);
  if (!form) throw data("Bad Request: the form could not be read.", { status: 400 });
  return form;
}

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** URLSearchParams replaces bad escapes silently; a form whose escapes do not decode is refused instead. */
function parseUrlEncoded(text: string): FormData | undefined {
  const form = new FormData();
  try {
    for (const pair of text.split("&")) {
      if (pair === "") continue;
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      form.append(decodeFormComponent(name), decodeFormComponent(value));
    }
  } catch {
    return undefined;
  }
  return form;
}

function decodeFormComponent(component: string): string {
  return decodeURIComponent(component.replaceAll("+", " "));
}

async function parseMultipart(
  request: Request,
  body: Uint8Array<ArrayBuffer>,
): Promise<FormData | undefined> {
  try {
    return await new Request(request.url, { method: "POST", headers: request.headers, body }).formData();
  } catch {
    return undefined;
  }
}
