import { defineTexts } from "edge-platform/shared";

/**
 * The reference product's own visible texts in its languages (product.config.ts `LOCALES`): English complete,
 * the others as far as translated (the rest shows in English). Pages read theirs with `useTexts`.
 */
export const navigationTexts = defineTexts(
  { home: "Home", about: "About", now: "Now", items: "Items", glossary: "Glossary", messages: "Messages" },
  {
    ja: {
      home: "ホーム",
      about: "概要",
      now: "現在",
      items: "項目",
      glossary: "用語集",
      messages: "メッセージ",
    },
    ar: {
      home: "الرئيسية",
      about: "حول",
      now: "الآن",
      items: "العناصر",
      glossary: "المسرد",
      messages: "الرسائل",
    },
    hi: { home: "होम", about: "परिचय", now: "अभी", items: "आइटम", glossary: "शब्दावली", messages: "संदेश" },
  },
);

export const nowTexts = defineTexts(
  {
    heading: "Now",
    renderedAt: "Rendered per request at",
    dataCenter: "in the {colo} data center",
    timeZone: "Your time zone: {zone}.",
  },
  {
    ja: {
      heading: "現在",
      renderedAt: "リクエストごとにレンダリングされた時刻:",
      dataCenter: "（{colo} データセンター）",
      timeZone: "あなたのタイムゾーン: {zone}。",
    },
    ar: {
      heading: "الآن",
      renderedAt: "عُرضت هذه الصفحة لهذا الطلب في",
      dataCenter: "في مركز البيانات {colo}",
      timeZone: "منطقتك الزمنية: {zone}.",
    },
    hi: {
      heading: "अभी",
      renderedAt: "हर अनुरोध पर रेंडर किया गया:",
      dataCenter: "{colo} डेटा सेंटर में",
      timeZone: "आपका समय क्षेत्र: {zone}।",
    },
  },
);

export const latestMessagesTexts = defineTexts(
  { heading: "Latest messages", asOf: "As of", post: "Post a message", empty: "No messages yet." },
  {
    ja: {
      heading: "最新のメッセージ",
      asOf: "更新:",
      post: "メッセージを投稿する",
      empty: "まだメッセージはありません。",
    },
    ar: { heading: "أحدث الرسائل", asOf: "حتى", post: "انشر رسالة", empty: "لا توجد رسائل بعد." },
    hi: { heading: "नवीनतम संदेश", asOf: "अद्यतन:", post: "संदेश पोस्ट करें", empty: "अभी कोई संदेश नहीं।" },
  },
);
