import { defineTexts } from "edge-platform/shared";

/**
 * The reference product's texts every page shows (its navigation), in its languages (product.config.ts
 * `LOCALES`): English complete, the others as far as translated (the rest shows in English). A page's own texts
 * live in its route module, so only that page's chunk carries them (routes/now.tsx).
 */
export const navigationTexts = defineTexts(
  {
    label: "Main",
    home: "Home",
    about: "About",
    now: "Now",
    items: "Items",
    glossary: "Glossary",
    messages: "Messages",
  },
  {
    ja: {
      label: "メイン",
      home: "ホーム",
      about: "概要",
      now: "現在",
      items: "項目",
      glossary: "用語集",
      messages: "メッセージ",
    },
    ar: {
      label: "القائمة الرئيسية",
      home: "الرئيسية",
      about: "حول",
      now: "الآن",
      items: "العناصر",
      glossary: "المسرد",
      messages: "الرسائل",
    },
    hi: {
      label: "मुख्य",
      home: "होम",
      about: "परिचय",
      now: "अभी",
      items: "आइटम",
      glossary: "शब्दावली",
      messages: "संदेश",
    },
  },
);
