import { data } from "react-router";
import { readLimitedBody, TOO_LARGE } from "./read-limited-body";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The submitted form, or a thrown 4xx with a plain message: 415 for anything but a form encoding, 413
 * above `maxBytes`, 400 for a body that does not parse. Never a 500 for bad input.
 */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    throw data(`Unsupported Media Type: send the form as ${FORM_TYPES.join(" or ")}.`, { status: 415 });
  }
  const body = await readLimitedBody(request, maxBytes);
  if (body === TOO_LARGE)
    throw data(`Payload Too Large: forms are limited to ${maxBytes} bytes.`, { status: 413 });
  try {
    return await new Request(request.url, { method: "POST", headers: request.headers, body }).formData();
  } catch {
    throw data("Bad Request: the form could not be read.", { status: 400 });
  }
}
