// The platform's hydration (packages/edge-platform/src/entry.client.tsx): error reporting and the navigation code.
import "edge-platform/entry.client";
