import { createCookie } from "react-router";

/**
 * Read-your-writes for a global audience. With D1 read replication on, a read may be served by a
 * replica that has not yet received the visitor's own write. D1's Sessions API fixes that with a bookmark:
 * a session started from bookmark B only reads from a copy at least as new as B. The visitor's latest
 * bookmark travels in a cookie from the write's response to the following reads.
 */

/** Long past any replica lag, short enough that a bookmark from a re-created database soon stops mattering. */
const D1_BOOKMARK_MAX_AGE_SECONDS = 60 * 60;

/** D1's bookmarks are 59 characters; anything much longer is not one. */
const MAX_BOOKMARK_LENGTH = 128;

/**
 * Hex fields joined by hyphens: D1 and Miniflare give `00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683`
 * (8-8-8-32). Loose on the field sizes, so a longer counter still passes; strict on the alphabet, so no other
 * text reaches D1, which keeps the greater of two bookmarks by string comparison: "zzzz" would never give way.
 */
const BOOKMARK_SHAPE = /^[0-9a-f]+(?:-[0-9a-f]+){1,7}$/;

export function isD1Bookmark(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK_SHAPE.test(value);
}

/** React Router's cookie codec: the value is encoded, so a bookmark's shape never reaches the header raw. */
const bookmarkCookie = createCookie("d1-bookmark", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: D1_BOOKMARK_MAX_AGE_SECONDS,
});

/** The visitor's cookie: whether they sent one at all, and its bookmark when it is a valid one. */
export async function readBookmarkCookie(
  request: Request,
): Promise<{ sent: boolean; bookmark: string | null }> {
  const header = request.headers.get("Cookie");
  const value: unknown = header ? await bookmarkCookie.parse(header) : null;
  return { sent: value !== null, bookmark: isD1Bookmark(value) ? value : null };
}

/** The Set-Cookie header for a bookmark: Secure whenever the app is served over https. */
export function bookmarkSetCookie(bookmark: string, requestUrl: string): Promise<string> {
  return bookmarkCookie.serialize(bookmark, { secure: new URL(requestUrl).protocol === "https:" });
}

/**
 * - `read`: starts at the visitor's bookmark, or anywhere (the nearest copy) without one; hands a newer
 *   bookmark back only to a visitor who already carries a bookmark cookie (someone who never wrote needs none).
 * - `write`: starts at the primary, which is never behind any bookmark, so a bad cookie cannot hold a write
 *   back; hands the new bookmark back whenever it changed.
 */
export type D1SessionIntent = "read" | "write";

export type VisitorD1Session = {
  /** Query through this; every read sees what the visitor wrote before. */
  db: D1DatabaseSession;
  /** Headers for the response: Set-Cookie with the new bookmark, when there is one to hand over. Call after querying. */
  responseHeaders(): Promise<Headers>;
};

export async function openVisitorD1Session(
  db: D1Database,
  request: Request,
  intent: D1SessionIntent,
): Promise<VisitorD1Session> {
  const cookie = await readBookmarkCookie(request);
  const start = intent === "write" ? "first-primary" : (cookie.bookmark ?? "first-unconstrained");
  const session = db.withSession(start);
  return {
    db: session,
    async responseHeaders() {
      const headers = new Headers();
      const bookmark = session.getBookmark();
      const handOver =
        isD1Bookmark(bookmark) && bookmark !== cookie.bookmark && (intent === "write" || cookie.sent);
      if (handOver) headers.set("Set-Cookie", await bookmarkSetCookie(bookmark, request.url));
      return headers;
    },
  };
}
