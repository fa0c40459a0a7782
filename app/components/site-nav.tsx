import { useTexts } from "edge-platform/react";
import { NavLink } from "react-router";
import { navigationTexts } from "../texts";

const NAV_LINKS = [
  { to: "/", label: "home" },
  { to: "/about", label: "about" },
  { to: "/now", label: "now" },
  { to: "/items", label: "items" },
  { to: "/glossary", label: "glossary" },
  { to: "/messages", label: "messages" },
] as const;

export function SiteNav() {
  const texts = useTexts(navigationTexts);
  return (
    <header className="site-header">
      <nav aria-label={texts.label}>
        {NAV_LINKS.map(({ to, label }) => (
          // NavLink marks the current page (aria-current="page", which app.css styles); `end` keeps Home
          // from being current on every page. "Items" stays current on an item's page.
          <NavLink key={to} to={to} end={to === "/"}>
            {texts[label]}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
