/**
 * The reason phrases of RFC 9110 (section 15) for the error statuses a route may throw. React Router gives a
 * thrown `data(…, { status })` the text "Internal Server Error" whatever its status (7.18.4,
 * `dataWithResponseInitToErrorResponse`), and page data carries that text to the browser's error page; the
 * platform fills in the right one (errors/with-error-digests.server.ts), which the error page shows.
 */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

/** The reason phrase of an error status; a status without one gets its class ("Client Error", "Server Error"). */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "");
}
