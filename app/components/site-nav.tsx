import { NavLink } from "react-router";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/now", label: "Now" },
  { to: "/items", label: "Items" },
] as const;

export function SiteNav() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        {NAV_LINKS.map(({ to, label }) => (
          <NavLink key={to} to={to} end={to === "/"}>
            {label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
