import { useLocation } from "react-router";
import { AppLink } from "./app-link";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/now", label: "Now" },
  { to: "/items", label: "Items" },
  { to: "/glossary", label: "Glossary" },
  { to: "/messages", label: "Messages" },
] as const;

export function SiteNav() {
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <nav aria-label="Main">
        {NAV_LINKS.map(({ to, label }) => {
          const active = to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
          return (
            // Styled by aria-current (app.css): no class needed.
            <AppLink key={to} to={to} aria-current={active ? "page" : undefined}>
              {label}
            </AppLink>
          );
        })}
      </nav>
    </header>
  );
}
