/**
 * npm run bench:first-load: the first-load JavaScript of a static and a dynamic page of the production
 * build served in workerd (bench/subject.ts: the product's, or the platform's fixture on a product without /now),
 * raw and gzip -9, and any Sentry code in it. Ends with one summary line.
 */

import { serveBuild } from "edge-platform/local-server";
import { measureFirstLoad } from "edge-platform/testing";
import { benchBuild } from "./subject.ts";

const KB = 1024;
const app = await serveBuild({ buildDirectory: await benchBuild(["/", "/now"]) });
try {
  const pages = [await measureFirstLoad(app.url, "/"), await measureFirstLoad(app.url, "/now")];
  for (const page of pages) {
    console.log(`\n${page.path}`);
    for (const file of [...page.files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
      console.log(
        `  ${(file.gzipBytes / KB).toFixed(1).padStart(7)} KiB gzip ${(file.rawBytes / KB).toFixed(1).padStart(7)} KiB raw  ${file.url}${file.hasSentry ? "  <- Sentry code" : ""}`,
      );
    }
  }
  const sentry = pages.flatMap((page) => page.files.filter((file) => file.hasSentry).map((file) => file.url));
  console.log(
    `\nfirst-load: ${pages
      .map(
        (page) =>
          `${page.path} ${(page.gzipBytes / KB).toFixed(1)} KiB gzip (${(page.rawBytes / KB).toFixed(1)} KiB raw, ${page.files.length - 1} files)`,
      )
      .join("; ")}; Sentry code: ${sentry.length === 0 ? "none" : sentry.join(", ")}`,
  );
} finally {
  await app.close();
}
