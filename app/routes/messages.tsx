import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { isSubmissionId, MESSAGE_LIMITS, type MessageErrors, validateMessage } from "../data/messages";
import { latestMessages, saveMessage } from "../data/messages.server";
import { REQUEST_BODY_TIMEOUT_MS } from "../platform/constants";
import { recordServerError } from "../platform/errors/server-error.server";
import { readFormData } from "../platform/http/form-data.server";
import { getRequestPlatform } from "../platform/request-context";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = () => [{ title: "Messages · Edge app" }];

/** A message form is a few hundred characters; anything much larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = getRequestPlatform(context);
  const submissionId = crypto.randomUUID();
  try {
    return { messages: await latestMessages(env.DB), listDigest: null, submissionId };
  } catch (error) {
    // The list is unavailable, the form is not: show it with a digest rather than an error page.
    return { messages: [], listDigest: recordServerError(error, request), submissionId };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    throw data("Method Not Allowed: messages are posted.", { status: 405, headers: { Allow: "POST" } });
  }
  const form = await readFormData(request, { maxBytes: MAX_FORM_BYTES, timeoutMs: REQUEST_BODY_TIMEOUT_MS });
  const submissionId = form.get("submissionId");
  const result = validateMessage({ name: form.get("name"), text: form.get("text") });
  if (!result.ok) return data({ errors: result.errors, values: result.values }, { status: 400 });
  const values = result.message;
  if (!isSubmissionId(submissionId)) {
    return data(
      { formError: "This form is out of date: reload the page and send it again.", values },
      { status: 400 },
    );
  }
  try {
    await saveMessage(getRequestPlatform(context).env.DB, submissionId, values);
  } catch (error) {
    // Nothing was written (one statement); keep what the user typed and give them the digest to quote.
    const digest = recordServerError(error, request);
    return data(
      { formError: "Your message could not be saved. Please try again in a moment.", digest, values },
      { status: 503 },
    );
  }
  return redirect("/messages", 303);
}

type ActionResult = {
  errors?: MessageErrors;
  formError?: string;
  digest?: string;
  values?: { name: string; text: string };
};

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/messages";
  const [browserErrors, setBrowserErrors] = useState<MessageErrors | undefined>();
  const errors = browserErrors ?? result?.errors ?? {};

  return (
    <>
      <h1>Messages</h1>
      <Form
        method="post"
        noValidate
        key={loaderData.submissionId}
        className="message-form"
        onSubmit={(event) => {
          // The server's rules, checked before sending; the server checks them again.
          const check = validateMessage(Object.fromEntries(new FormData(event.currentTarget)));
          setBrowserErrors(check.ok ? undefined : check.errors);
          if (!check.ok || sending) event.preventDefault();
        }}
      >
        <input type="hidden" name="submissionId" value={loaderData.submissionId} />
        <label htmlFor="message-name">Name</label>
        <input
          id="message-name"
          name="name"
          defaultValue={result?.values?.name}
          maxLength={MESSAGE_LIMITS.name}
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="message-name-hint"
        />
        <p id="message-name-hint" className={errors.name ? "field-error" : "hint"}>
          {errors.name ?? `1 to ${MESSAGE_LIMITS.name} characters.`}
        </p>
        <label htmlFor="message-text">Message</label>
        <textarea
          id="message-text"
          name="text"
          defaultValue={result?.values?.text}
          maxLength={MESSAGE_LIMITS.text}
          required
          rows={3}
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
        <button type="submit" disabled={sending} aria-busy={sending || undefined}>
          {sending ? "Posting…" : "Post message"}
        </button>
      </Form>
      {loaderData.listDigest ? (
        <p role="status" className="form-error">
          {`The latest messages could not be loaded. Digest: ${loaderData.listDigest}`}
        </p>
      ) : null}
      <ol className="messages" aria-label="Latest messages">
        {loaderData.messages.map((message) => (
          <li key={message.id}>
            <strong>{message.name}</strong> <time dateTime={message.createdAt}>{message.createdAt}</time>
            <p>{message.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
