import type { PlatformTexts } from "edge-platform/shared";
import { GLOSSARY } from "./data/glossary.ts";

/**
 * The product's choices the platform is configured with, in one place. Read by the build
 * (react-router.config.ts, vite.config.ts), which hands them to the platform; the platform
 * (packages/edge-platform/src/, workers/) never imports product code (a lint rule in biome.json keeps it so).
 * The layout and navigation around every page are the product's too: app/root.tsx.
 */

/**
 * Pages pre-rendered at build time and served as static files: "static" in the contract (C5), their
 * prefetched data reused for 300 s. Every other page is rendered per request ("dynamic").
 */
export const STATIC_PAGES: readonly string[] = [
  "/",
  "/about",
  "/glossary",
  ...GLOSSARY.map((entry) => `/glossary/${entry.slug}`),
];

/**
 * Origins other than the app's own that may submit forms and actions (C6), e.g. a preview host.
 * Exact origins only (`https://preview.example.com`), no wildcards.
 */
export const EXTRA_ACTION_ORIGINS: readonly string[] = [];

/**
 * The languages the pages are written in (BCP 47), the default first: a visitor gets the first of these their
 * browser asks for, or the default (packages/edge-platform/docs/i18n.md). A `locale` cookie naming one of them
 * overrides the browser.
 */
export const LOCALES: readonly string[] = ["en", "ja", "ar", "hi"];

/** Where neither the edge nor the browser has said (the edge always says in production). */
export const DEFAULT_TIME_ZONE = "UTC";

/** The platform's own texts (skip link, 404 page, write limit) in this product's other languages. */
export const PLATFORM_TEXTS: Readonly<Record<string, Partial<PlatformTexts>>> = {
  ja: {
    skipToContent: "本文へスキップ",
    notFound: "このページは見つかりませんでした。",
    notFoundTitle: "404: ページが見つかりません",
    methodNotAllowed: "このページはその種類のリクエストを受け付けていません。",
    requestFailed: "リクエストに失敗しました。",
    writeLimited:
      "短時間にこの接続からの投稿が多すぎるため、この投稿は送信されませんでした。" +
      "入力した文章はそのまま残っています。{seconds} 秒後にもう一度送信してください。",
  },
  ar: {
    skipToContent: "تخطَّ إلى المحتوى",
    notFound: "تعذّر العثور على هذه الصفحة.",
    notFoundTitle: "404: الصفحة غير موجودة",
    methodNotAllowed: "هذه الصفحة لا تقبل هذا النوع من الطلبات.",
    requestFailed: "تعذّر تنفيذ الطلب.",
    writeLimited:
      "أُرسلت منشورات كثيرة من اتصالك خلال وقت قصير، لذلك لم يُرسَل هذا المنشور. " +
      "نصّك ما زال هنا: أعد الإرسال بعد {seconds} ثانية.",
  },
  hi: {
    skipToContent: "सामग्री पर जाएँ",
    notFound: "यह पेज नहीं मिला।",
    notFoundTitle: "404: पेज नहीं मिला",
    methodNotAllowed: "यह पेज इस तरह का अनुरोध स्वीकार नहीं करता।",
    requestFailed: "अनुरोध विफल रहा।",
    writeLimited:
      "आपके कनेक्शन से कम समय में बहुत अधिक पोस्ट भेजी गईं, इसलिए यह पोस्ट नहीं भेजी गई। " +
      "आपका लिखा हुआ यहीं है: {seconds} सेकंड बाद फिर से भेजें।",
  },
};

/**
 * The most JavaScript (bytes, gzip -9) a first visit to `/` may load (tests/worker/first-load-budget.test.ts).
 * Unset, the platform's default applies (135 KiB: edge-platform/testing's DEFAULT_FIRST_LOAD_BUDGET_BYTES).
 */
export const FIRST_LOAD_BUDGET_BYTES: number | undefined = undefined;
