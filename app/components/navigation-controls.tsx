import { usePrefetch, useTexts } from "edge-platform/react";
import { defineTexts, fillText } from "edge-platform/shared";
import { useLocation, useNavigate, useNavigation, useRevalidator } from "react-router";
import { controlTargets } from "./site-pages";

/**
 * Visible controls for each router verb (packages/edge-platform/docs/contract.md C2), on the reference pages:
 * React Router's own `useNavigate` and `useRevalidator`, and the platform's `usePrefetch` (the verb React
 * Router lacks). The pages they push, replace with and prefetch are the site's others (`controlTargets`), so
 * deleting a page leaves no control pointing at it.
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
    push: "Push {path}",
    replace: "Replace with {path}",
    prefetch: "Prefetch {path}",
    loading: "Loading…",
  },
  {
    ja: {
      region: "ナビゲーション操作",
      back: "戻る",
      forward: "進む",
      refresh: "再読み込み",
      push: "{path} へ移動",
      replace: "{path} に置き換え",
      prefetch: "{path} を先読み",
      loading: "読み込み中…",
    },
    ar: {
      region: "عناصر التحكم في التنقل",
      back: "رجوع",
      forward: "تقدم",
      refresh: "تحديث",
      push: "الانتقال إلى \u2066{path}\u2069",
      replace: "الاستبدال بـ \u2066{path}\u2069",
      prefetch: "الجلب المسبق لـ \u2066{path}\u2069",
      loading: "جارٍ التحميل…",
    },
    hi: {
      region: "नेविगेशन नियंत्रण",
      back: "पीछे",
      forward: "आगे",
      refresh: "रीफ़्रेश करें",
      push: "{path} पर जाएँ",
      replace: "{path} से बदलें",
      prefetch: "{path} पहले से लोड करें",
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
  const { push, replace, prefetch: prefetched } = controlTargets(useLocation().pathname);
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
      {push ? (
        <button type="button" onClick={() => navigate(push)}>
          {fillText(texts.push, { path: push })}
        </button>
      ) : null}
      {replace ? (
        <button type="button" onClick={() => navigate(replace, { replace: true })}>
          {fillText(texts.replace, { path: replace })}
        </button>
      ) : null}
      {prefetched ? (
        <button type="button" onClick={() => prefetch(prefetched)}>
          {fillText(texts.prefetch, { path: prefetched })}
        </button>
      ) : null}
      {/* Always there: a live region added together with its text is often not read out. */}
      <span role="status">{busy ? texts.loading : ""}</span>
    </section>
  );
}
