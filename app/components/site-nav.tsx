import { useTexts } from "edge-platform/react";
import { NavLink } from "react-router";
import { navigationTexts } from "../texts";
import { NAV_LINKS } from "./site-pages";

/** A string, not the list's literal paths: the list may hold no home page. */
function isHome(path: string): boolean {
  return path === "/";
}

export function SiteNav() {
  const texts = useTexts(navigationTexts);
  return (
    <header className="site-header">
      <nav aria-label={texts.label}>
        {NAV_LINKS.map(({ to, label }) => (
          // NavLink marks the current page (aria-current="page", which app.css styles); `end` keeps Home
          // from being current on every page. "Items" stays current on an item's page.
          <NavLink key={to} to={to} end={isHome(to)}>
            {texts[label]}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
