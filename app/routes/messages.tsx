import {
  getRequestContext,
  openVisitorD1Session,
  purgePages,
  readFormData,
  recordServerError,
} from "edge-platform/server";
import { isWriteLimited, REQUEST_BODY_TIMEOUT_MS } from "edge-platform/shared";
import { RelativeTime } from "edge-platform/time";
import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import {
  isSubmissionId,
  MESSAGE_LIMITS,
  MESSAGES_CACHE_TAG,
  type MessageErrors,
  validateMessage,
} from "../data/messages";
import { latestMessages, type SaveOutcome, saveMessage } from "../data/messages.server";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = () => [
  { title: "Messages · Edge app" },
  { name: "description", content: "Post a short message and read the latest ones from other visitors." },
];

/** A message form is a few hundred characters; anything much larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = getRequestContext(context);
  const submissionId = crypto.randomUUID();
  try {
    // Read from the visitor's bookmark, so the list includes what they just posted.
    const session = await openVisitorD1Session(env.DB, request, "read");
    const messages = await latestMessages(session.db);
    return data({ messages, listDigest: null, submissionId }, { headers: await session.responseHeaders() });
  } catch (error) {
    // The list is unavailable, the form is not: show it with a digest rather than an error page.
    return { messages: [], listDigest: recordServerError(error, { request, context }), submissionId };
  }
}

/** The form came without a valid submission id; the re-rendered form has a fresh one. */
const OUT_OF_DATE =
  "This form is out of date, so your message was not posted. Your text is still here: send again to post it.";
/** The posted id was used for another message; refusing keeps both (docs/MUTATIONS.md). */
const ID_TAKEN =
  "This form was already used for a different message, so yours was not posted. Your text is still here: send again to post it.";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    throw data("Method Not Allowed: messages are posted.", { status: 405, headers: { Allow: "POST" } });
  }
  const form = await readFormData(request, { maxBytes: MAX_FORM_BYTES, timeoutMs: REQUEST_BODY_TIMEOUT_MS });
  const postedId = form.get("submissionId");
  // The id the re-rendered form carries: the posted one while nothing is stored under it (a failed write may
  // have committed, and resending it must stay harmless), a fresh one otherwise. React Router does not re-run
  // the loader after a 4xx/5xx answer to a client-side post, so the form cannot wait for the loader's id.
  const submissionId = isSubmissionId(postedId) ? postedId : crypto.randomUUID();
  const result = validateMessage({ name: form.get("name"), text: form.get("text") });
  if (!result.ok) {
    return data({ errors: result.errors, values: result.values, submissionId }, { status: 400 });
  }
  const values = result.message;
  if (!isSubmissionId(postedId)) {
    return data({ formError: OUT_OF_DATE, values, submissionId }, { status: 400 });
  }
  const session = await openVisitorD1Session(getRequestContext(context).env.DB, request, "write");
  let outcome: SaveOutcome;
  try {
    outcome = await saveMessage(session.db, postedId, values);
  } catch (error) {
    // Nothing was written (one transaction); keep what the user typed and give them the digest to quote.
    const digest = recordServerError(error, { request, context });
    return data(
      {
        formError: "Your message could not be saved. Please try again in a moment.",
        digest,
        values,
        submissionId,
      },
      { status: 503 },
    );
  }
  if (outcome === "id-taken") {
    return data({ formError: ID_TAKEN, values, submissionId: crypto.randomUUID() }, { status: 409 });
  }
  // The write's bookmark goes with the redirect, so the list it leads to is read from a copy that has it.
  const headers = await session.responseHeaders();
  // Every edge copy of the latest messages is out of date now (packages/edge-platform/docs/caching.md). If the purge could not be
  // made, the poster is sent to a URL no copy answers; the message is stored either way.
  const purge = outcome === "stored" ? await purgePages(context, { tags: [MESSAGES_CACHE_TAG] }) : undefined;
  return redirect(purge?.location("/messages") ?? "/messages", { status: 303, headers });
}

/** The form's fields in page order, with their inputs' ids: focus goes to the first invalid one. */
const FIELD_IDS = { name: "message-name", text: "message-text" } as const;
const SUBMIT_ID = "message-submit";

type ActionResult = {
  /** The id the form must carry next (see the action). */
  submissionId?: string;
  errors?: MessageErrors;
  formError?: string;
  digest?: string;
  values?: { name: string; text: string };
};
type Status = { text: string; error?: boolean };

/**
 * Errors (the browser's check or the server's 400) are announced in the status region and focus
 * goes to the first invalid field, whose description is its error (the status does not repeat it).
 */
function reportErrors(errors: MessageErrors, setStatus: (status: Status) => void): void {
  const fields = (Object.keys(FIELD_IDS) as (keyof typeof FIELD_IDS)[]).filter((field) => errors[field]);
  const count = fields.length === 1 ? "1 field needs" : `${fields.length} fields need`;
  setStatus({ text: `Your message was not posted: ${count} correcting.`, error: true });
  if (fields[0]) document.getElementById(FIELD_IDS[fields[0]])?.focus();
}

/**
 * The action's answer as the form shows it. Too many posts from this client: the platform answered 429
 * before the action ran (packages/edge-platform/src/limits/write-limits.server.ts), with the posted fields and when to
 * send again; the posted id stays (nothing was stored under it).
 */
function actionResult(actionData: unknown): ActionResult | undefined {
  if (!isWriteLimited(actionData)) return actionData as ActionResult | undefined;
  const { name = "", text = "", submissionId } = actionData.values;
  return {
    formError: actionData.writeLimited.message,
    values: { name, text },
    submissionId: isSubmissionId(submissionId) ? submissionId : undefined,
  };
}

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionResult(actionData);
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/messages";
  const [browserErrors, setBrowserErrors] = useState<MessageErrors | undefined>();
  const [status, setStatus] = useState<Status>({ text: "" });
  /** The id of the control that sent the form: it gets focus again once the post is stored. */
  const sentFrom = useRef<string | undefined>(undefined);
  const errors = browserErrors ?? result?.errors ?? {};

  useEffect(() => {
    if (browserErrors) reportErrors(browserErrors, setStatus);
  }, [browserErrors]);
  useEffect(() => {
    // An answer from the action means nothing was stored (a stored post redirects, leaving no action data).
    if (!actionData) return;
    const id = sentFrom.current;
    sentFrom.current = undefined;
    const { errors } = actionData as ActionResult;
    if (errors) reportErrors(errors, setStatus);
    // Otherwise the alert says what failed; the button, disabled while sending, may have lost focus.
    else if (id) document.getElementById(id)?.focus();
  }, [actionData]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new submission id is the signal (see below)
  useEffect(() => {
    // A new submission id after our post: it was stored and the form is rendered afresh (its key), so the
    // control that had focus is a new element; focus it, so the visitor stays where they were.
    const id = sentFrom.current;
    if (id === undefined) return;
    sentFrom.current = undefined;
    setStatus({ text: "Message posted." });
    document.getElementById(id)?.focus();
  }, [loaderData.submissionId]);

  return (
    <>
      <h1>Messages</h1>
      <Form
        method="post"
        noValidate
        key={loaderData.submissionId}
        className="message-form"
        aria-label="Post a message"
        onSubmit={(event) => {
          // The server's rules, checked before sending; the server checks them again.
          const check = validateMessage(Object.fromEntries(new FormData(event.currentTarget)));
          setBrowserErrors(check.ok ? undefined : check.errors);
          if (!check.ok || sending) {
            event.preventDefault();
            return;
          }
          const active = document.activeElement;
          sentFrom.current = active?.id && event.currentTarget.contains(active) ? active.id : SUBMIT_ID;
          setStatus({ text: "" });
        }}
      >
        <input type="hidden" name="submissionId" value={result?.submissionId ?? loaderData.submissionId} />
        <label htmlFor={FIELD_IDS.name}>Name</label>
        <input
          id={FIELD_IDS.name}
          name="name"
          autoComplete="name"
          // Typed right-to-left text shows right-to-left, as it will in the list.
          dir="auto"
          defaultValue={result?.values?.name}
          maxLength={MESSAGE_LIMITS.name}
          required
          // Without JavaScript, the 400 page itself puts focus on the first invalid field.
          // biome-ignore lint/a11y/noAutofocus: only on a page answering a failed post, where focus belongs here
          autoFocus={Boolean(errors.name)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="message-name-hint"
        />
        <p id="message-name-hint" className={errors.name ? "field-error" : "hint"}>
          {errors.name ?? `1 to ${MESSAGE_LIMITS.name} characters.`}
        </p>
        <label htmlFor={FIELD_IDS.text}>Message</label>
        <textarea
          id={FIELD_IDS.text}
          name="text"
          dir="auto"
          defaultValue={result?.values?.text}
          maxLength={MESSAGE_LIMITS.text}
          required
          rows={3}
          // biome-ignore lint/a11y/noAutofocus: as above, when the message is the first invalid field
          autoFocus={Boolean(errors.text && !errors.name)}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby="message-text-hint"
        />
        <p id="message-text-hint" className={errors.text ? "field-error" : "hint"}>
          {errors.text ?? `1 to ${MESSAGE_LIMITS.text} characters.`}
        </p>
        {result?.formError ? (
          <p role="alert" className="form-error">
            {result.digest ? `${result.formError} Digest: ${result.digest}` : result.formError}
          </p>
        ) : null}
        <button id={SUBMIT_ID} type="submit" disabled={sending} aria-busy={sending || undefined}>
          {sending ? "Posting…" : "Post message"}
        </button>
      </Form>
      {/* Outside the form, which is rendered afresh after a post: a live region must outlive its updates. */}
      <p role="status" className={status.error ? "form-status form-error" : "form-status"}>
        {status.text}
      </p>
      {loaderData.listDigest ? (
        <p role="status" className="form-error">
          {`The latest messages could not be loaded. Digest: ${loaderData.listDigest}`}
        </p>
      ) : null}
      <h2 id="latest-messages">Latest messages</h2>
      {loaderData.messages.length === 0 && !loaderData.listDigest ? <p>No messages yet.</p> : null}
      <ol className="messages" aria-labelledby="latest-messages">
        {loaderData.messages.map((message) => (
          <li key={message.id}>
            {/* Visitors' text, isolated: its direction is its own and cannot reorder the page's text. */}
            <strong>
              <bdi>{message.name}</bdi>
            </strong>{" "}
            <RelativeTime instant={message.createdAt} />
            <p dir="auto">{message.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
