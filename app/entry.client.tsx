// The platform's hydration (app/platform/entry.client.tsx): error reporting and the navigation platform.
import "./platform/entry.client";
