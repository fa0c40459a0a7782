import { NavLink } from "react-router";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/now", label: "Now" },
  { to: "/items", label: "Items" },
  { to: "/glossary", label: "Glossary" },
  { to: "/messages", label: "Messages" },
] as const;

export function SiteNav() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        {NAV_LINKS.map(({ to, label }) => (
          // NavLink marks the current page (aria-current="page", which app.css styles); `end` keeps Home
          // from being current on every page. "Items" stays current on an item's page.
          <NavLink key={to} to={to} end={to === "/"}>
            {label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
