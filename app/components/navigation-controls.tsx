import { usePrefetch, useTexts } from "edge-platform/react";
import { defineTexts } from "edge-platform/shared";
import { useNavigate, useNavigation, useRevalidator } from "react-router";

/**
 * Visible controls for each router verb (packages/edge-platform/docs/contract.md C2), on the reference pages:
 * React Router's own `useNavigate` and `useRevalidator`, and the platform's `usePrefetch` (the verb React
 * Router lacks).
 */
/**
 * The controls' labels in the product's languages; only /now's chunk carries them. A path inside right-to-left
 * text is isolated left to right (U+2066 ... U+2069), or its slash would show at its end ("items/").
 */
const controlsTexts = defineTexts(
  {
    region: "Navigation controls",
    back: "Back",
    forward: "Forward",
    refresh: "Refresh",
    push: "Push /items",
    replace: "Replace with /glossary",
    prefetch: "Prefetch /about",
    loading: "Loading…",
  },
  {
    ja: {
      region: "ナビゲーション操作",
      back: "戻る",
      forward: "進む",
      refresh: "再読み込み",
      push: "/items へ移動",
      replace: "/glossary に置き換え",
      prefetch: "/about を先読み",
      loading: "読み込み中…",
    },
    ar: {
      region: "عناصر التحكم في التنقل",
      back: "رجوع",
      forward: "تقدم",
      refresh: "تحديث",
      push: "الانتقال إلى \u2066/items\u2069",
      replace: "الاستبدال بـ \u2066/glossary\u2069",
      prefetch: "الجلب المسبق لـ \u2066/about\u2069",
      loading: "جارٍ التحميل…",
    },
    hi: {
      region: "नेविगेशन नियंत्रण",
      back: "पीछे",
      forward: "आगे",
      refresh: "रीफ़्रेश करें",
      push: "/items पर जाएँ",
      replace: "/glossary से बदलें",
      prefetch: "/about पहले से लोड करें",
      loading: "लोड हो रहा है…",
    },
  },
);

export function NavigationControls() {
  const texts = useTexts(controlsTexts);
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const prefetch = usePrefetch();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="navigation-controls" aria-label={texts.region}>
      <button type="button" onClick={() => navigate(-1)}>
        {texts.back}
      </button>
      <button type="button" onClick={() => navigate(1)}>
        {texts.forward}
      </button>
      <button type="button" onClick={() => revalidate()}>
        {texts.refresh}
      </button>
      <button type="button" onClick={() => navigate("/items")}>
        {texts.push}
      </button>
      <button type="button" onClick={() => navigate("/glossary", { replace: true })}>
        {texts.replace}
      </button>
      <button type="button" onClick={() => prefetch("/about")}>
        {texts.prefetch}
      </button>
      {/* Always there: a live region added together with its text is often not read out. */}
      <span role="status">{busy ? texts.loading : ""}</span>
    </section>
  );
}
