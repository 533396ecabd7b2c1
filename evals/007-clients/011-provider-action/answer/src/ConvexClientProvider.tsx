import { ConvexProvider, ConvexReactClient } from "convex/react";
import type { ReactNode } from "react";

export function createConvexClient(url: string): ConvexReactClient {
  return new ConvexReactClient(url);
}

export function ConvexClientProvider({ client, children }: { client: ConvexReactClient; children: ReactNode }) {
  return <ConvexProvider client={client}>{children}</ConvexProvider>;
}
