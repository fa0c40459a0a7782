import "edge-platform/entry.client";
