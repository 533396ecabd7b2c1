import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "../convex/_generated/api";

export function useProfile(name: string | null) {
  return useQuery(api.profiles.getByName, name ? { name } : "skip");
}

export function describeProfile(
  profile: FunctionReturnType<typeof api.profiles.getByName> | undefined,
): string {
  if (profile === undefined) {
    return "Loading...";
  }
  if (profile === null) {
    return "No such profile";
  }
  return `${profile.name}: ${profile.bio}`;
}
